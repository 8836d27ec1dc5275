import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, registerAndSignIn, shareOfNonBackgroundPixels, test } from "./fixtures";
import { SHARED_DATA } from "../setup/shared-data";
import { splatSamples } from "../setup/splat-samples";

const DATA = SHARED_DATA;
const VIEWER_BACKGROUND: [number, number, number] = [0x1e, 0x1f, 0x22];

/**
 * Waits, reloading the dashboard as a returning owner would, until every card shows its thumbnail image
 * — rendered from the model on the server, the owner doing nothing — and returns the images' natural sizes.
 */
async function waitForCardThumbnails(page: Page, count: number): Promise<Array<[number, number]>> {
  const images = page.getByTestId("item-card").locator("img");
  await expect(async () => {
    await page.reload();
    await expect(images).toHaveCount(count, { timeout: 2_000 });
  }).toPass({ timeout: 90_000, intervals: [2_000] });
  return images.evaluateAll((list) =>
    Promise.all(
      (list as HTMLImageElement[]).map(async (img) => {
        await img.decode();
        return [img.naturalWidth, img.naturalHeight] as [number, number];
      }),
    ),
  );
}

/** After "Upload": the page of the item just made, not the item page the dialog was opened on. */
async function waitForNewItemPage(page: Page, openedOn: string): Promise<string> {
  await page.waitForURL((url) => /^\/item\/[0-9a-f-]{36}$/.test(url.pathname) && url.href !== openedOn);
  return page.url().split("/").pop()!;
}

const MODELS = [
  { file: path.join(DATA, "models/cat.glb"), name: "cat" },
  { file: path.join(DATA, "splats/guitar.ply"), name: "guitar" },
  { file: path.join(DATA, "splats/guitar.ksplat"), name: "guitar" },
];

test("a creator registers, uploads a .glb, a .ply and a .ksplat, sees each rendered, and manages them", async ({ page, consoleErrors }) => {
  await registerAndSignIn(page);
  const itemIds: string[] = [];

  for (const model of MODELS) {
    const openedOn = page.url();
    await page.getByTestId("new-model").click();
    const dialog = page.getByTestId("upload-dialog");
    await expect(dialog).toBeVisible();
    await page.getByTestId("upload-input").setInputFiles(model.file);
    await expect(dialog.getByText(path.basename(model.file))).toBeVisible();
    await dialog.getByRole("button", { name: "Upload" }).click();
    itemIds.push(await waitForNewItemPage(page, openedOn));

    await expect(page.getByRole("heading", { level: 1, name: model.name })).toBeVisible();
    const viewer = page.getByTestId("model-viewer");
    await expect(viewer).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
    await page.waitForTimeout(1500); // a few frames after ready, so the first image has settled
    const share = await shareOfNonBackgroundPixels(page, '[data-testid="model-viewer"]', VIEWER_BACKGROUND);
    expect(share, `${model.name}: share of pixels showing the model`).toBeGreaterThan(0.02);
  }

  await page.goto("/dashboard");
  const cards = page.getByTestId("item-card");
  await expect(cards).toHaveCount(3);
  await expect(page.getByTestId("my-items").getByRole("heading", { name: "cat" })).toBeVisible();
  expect(await waitForCardThumbnails(page, 3)).toEqual([[640, 480], [640, 480], [640, 480]]);

  const first = page.locator(`[data-item-id="${itemIds[0]}"]`);
  await first.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog", { name: "Delete model" }).getByRole("button", { name: "Delete" }).click();
  await expect(cards).toHaveCount(2);
  await page.reload();
  await expect(cards).toHaveCount(2);
  await expect(page.locator(`[data-item-id="${itemIds[0]}"]`)).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("an upload the server refuses deletes the created item and shows the SPEC error toast", async ({ page }) => {
  await registerAndSignIn(page);
  await page.getByTestId("new-model").click();
  await page.getByTestId("upload-input").setInputFiles({
    name: "broken.glb",
    mimeType: "model/gltf-binary",
    buffer: Buffer.from("this is not a glTF file at all, just text".repeat(10)),
  });
  await page.getByTestId("upload-dialog").getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("File not uploaded. Error: The file's contents are not a valid .glb model.")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page.getByText("You have no models yet.")).toBeVisible();
});

test("the dialog takes the splat formats SuperSplat users bring: .spz, .splat and .sog, each shown and given a thumbnail of its splats", async ({ page, consoleErrors }) => {
  test.setTimeout(240_000);
  const samples = splatSamples();
  await registerAndSignIn(page);
  for (const file of [samples.spz, samples.splat, samples.sog]) {
    const openedOn = page.url();
    await page.getByTestId("new-model").click();
    const dialog = page.getByTestId("upload-dialog");
    await page.getByTestId("upload-input").setInputFiles(file);
    await expect(dialog.getByText(path.basename(file))).toBeVisible();
    await dialog.getByRole("button", { name: "Upload" }).click();
    await waitForNewItemPage(page, openedOn);
    await expect(page.getByTestId("model-viewer"), path.basename(file)).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
  }
  await page.goto("/dashboard");
  const cards = page.getByTestId("item-card");
  await expect(cards).toHaveCount(3);
  expect(await waitForCardThumbnails(page, 3)).toEqual([[640, 480], [640, 480], [640, 480]]);
  expect(consoleErrors).toEqual([]);
});
