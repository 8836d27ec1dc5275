import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, registerAndSignIn, test } from "./fixtures";
import { BASE_URL, createCreator, uploadModel } from "./site-seed";
import { SHARED_DATA } from "../setup/shared-data";

// The splat clean-up editor (issue 18 item 5), end to end in Chromium as the owner: open it on a
// splat, crop (delete outside the box) and see the count fall by exactly the splats outside, undo and
// redo, lasso-select and delete, save a version, restore the original; the editor token is refused
// for another user's item, and nobody gets one for an item that is not theirs.
test.use({ viewport: { width: 1280, height: 760 } });

const SPLATS = 20_000;

/** The first SPLATS splats of guitar.ply as a file of their own (made once), and their x coordinates. */
function smallSplat(): { file: string; xs: Float32Array } {
  const ply = readFileSync(path.join(SHARED_DATA, "splats/guitar.ply"));
  const end = ply.indexOf("end_header\n") + "end_header\n".length;
  const header = ply.subarray(0, end).toString("latin1");
  const stride = (header.match(/^property float /gm) ?? []).length * 4;
  const body = ply.subarray(end, end + SPLATS * stride);
  const dir = path.resolve("tests/.tmp/splat-editor");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "guitar-20k.ply");
  writeFileSync(file, Buffer.concat([Buffer.from(header.replace(/element vertex \d+/, `element vertex ${SPLATS}`), "latin1"), body]));
  const xs = new Float32Array(SPLATS);
  for (let i = 0; i < SPLATS; i++) xs[i] = body.readFloatLE(i * stride); // x is the first property
  return { file, xs };
}

const count = (kept: number, total = SPLATS) => `${kept.toLocaleString("en")} of ${total.toLocaleString("en")} splats kept`;

async function waitForSplats(page: Page, text: string) {
  await expect(page.getByTestId("splat-editor-count")).toHaveText(text, { timeout: 90_000 });
  await expect(page.getByText("Loading the splats…")).toBeHidden();
}

test("the owner crops a splat, saves a version and restores the original", async ({ page }) => {
  const { file, xs } = smallSplat();
  await registerAndSignIn(page, { name: "Cleaner Cleo" });
  await page.getByTestId("new-model").click();
  await page.getByTestId("upload-input").setInputFiles(file);
  await page.getByTestId("upload-dialog").getByRole("button", { name: "Upload" }).click();
  await page.waitForURL(/\/item\/[0-9a-f-]{36}$/);
  const itemId = page.url().split("/").pop()!;

  const editorTokens: string[] = [];
  page.on("request", (request) => {
    const token = request.headers()["x-editor-token"];
    if (token) editorTokens.push(token);
  });
  await page.goto(`/item/${itemId}/edit`);
  await page.getByRole("button", { name: "Open the clean-up editor" }).click();
  await waitForSplats(page, count(SPLATS));
  const versions = page.getByTestId("splat-editor-version");
  await expect(versions).toHaveText([/Version 1 · Original.*20,000 splats.*Current/]);

  // Crop: x up to the middle of the splats' x range; exactly the splats with a greater x go.
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const cut = Number(((xMin + xMax) / 2).toFixed(3));
  const kept = xs.filter((x) => x <= cut).length;
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(SPLATS);
  await page.getByLabel("x max").fill(String(cut));
  await page.getByRole("button", { name: "Delete outside box" }).click();
  await waitForSplats(page, count(kept));
  await page.screenshot({ path: test.info().outputPath("splat-editor-cropped.png") });

  // Undo and redo, with the buttons and the keyboard.
  await page.getByRole("button", { name: "Undo" }).click();
  await waitForSplats(page, count(SPLATS));
  await page.getByRole("heading", { name: "Clean up" }).click();
  await page.keyboard.press("Control+Shift+Z");
  await waitForSplats(page, count(kept));

  // Lasso a square in the middle of the view: some of the kept splats are selected, then deleted.
  await page.getByRole("radio", { name: "Lasso" }).click();
  const view = (await page.getByTestId("splat-editor-overlay").boundingBox())!;
  const cx = view.x + view.width / 2;
  const cy = view.y + view.height / 2;
  await page.mouse.move(cx - 80, cy - 80);
  await page.mouse.down();
  for (const [dx, dy] of [[80, -80], [80, 80], [-80, 80], [-80, -80]]) await page.mouse.move(cx + dx, cy + dy, { steps: 3 });
  await page.mouse.up();
  const selectedText = await page.getByTestId("splat-editor-selected").textContent();
  const selected = Number(selectedText!.replace(/[^0-9]/g, ""));
  expect(selected).toBeGreaterThan(0);
  expect(selected).toBeLessThan(kept);
  await page.screenshot({ path: test.info().outputPath("splat-editor-lasso.png") });
  await page.getByRole("button", { name: "Delete selected" }).click();
  await waitForSplats(page, count(kept - selected));
  await page.keyboard.press("Control+z");
  await waitForSplats(page, count(kept));

  // Save: the kept splats become version 2, the model's current file.
  await page.getByRole("button", { name: "Save as new version" }).click();
  await waitForSplats(page, count(kept, kept));
  await expect(versions).toHaveText([new RegExp(`Version 2 · Edited.*${kept.toLocaleString("en")} splats.*Current`), /Version 1 · Original.*Restore/]);
  const model = await (await fetch(`${BASE_URL}/v1/item/${itemId}/splats`, { headers: { "X-Editor-Token": editorTokens.at(-1)! } })).arrayBuffer();
  expect(Buffer.from(model).toString("latin1", 0, 200)).toContain(`element vertex ${kept}\n`);

  // Restore the original in one click; version 2 stays.
  await page.getByRole("button", { name: "Restore version 1" }).click();
  await waitForSplats(page, count(SPLATS));
  await expect(versions).toHaveText([/Version 2 · Edited.*Restore/, /Version 1 · Original.*Current/]);
  await versions.last().scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("splat-editor-versions.png") });

  // Another user's item: their editor token is not accepted here, and ours is refused there.
  const other = await createCreator("Other Otto");
  const otherItem = await uploadModel(other, { name: "Otto's model", visibility: "public" });
  const refused = await fetch(`${BASE_URL}/v1/supersplat/jwt?item_id=${itemId}`, { headers: { Authorization: `Bearer ${other.token}` } });
  expect(refused.status).toBe(404);
  const foreign = await fetch(`${BASE_URL}/v1/item/${otherItem}/versions`, { headers: { "X-Editor-Token": editorTokens.at(-1)! } });
  expect(await foreign.json()).toMatchObject({ status: 403, error: "forbidden" });
});

test("the crop box is dragged by its handles on the view; the face follows the pointer and the crop deletes what is past it", async ({ page }) => {
  const { file, xs } = smallSplat();
  await registerAndSignIn(page, { name: "Dragging Dora" });
  await page.getByTestId("new-model").click();
  await page.getByTestId("upload-input").setInputFiles(file);
  await page.getByTestId("upload-dialog").getByRole("button", { name: "Upload" }).click();
  await page.waitForURL(/\/item\/[0-9a-f-]{36}$/);
  const itemId = page.url().split("/").pop()!;
  await page.goto(`/item/${itemId}/edit`);
  await page.getByRole("button", { name: "Open the clean-up editor" }).click();
  await waitForSplats(page, count(SPLATS));

  // The box starts at the splats' bounds, with a handle on each of its six faces.
  const xMax = Math.max(...xs);
  expect(Number(await page.getByLabel("x max").inputValue())).toBeCloseTo(xMax, 3);
  const handle = (name: string) => page.locator(`[data-handle="${name}"]`);
  await expect(page.locator(".splat-editor-handle")).toHaveCount(6);
  const centre = async (name: string) => {
    const b = (await handle(name).boundingBox())!;
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  const from = await centre("x-max");
  const towards = await centre("x-min");
  // Drag the +x face 40 % of the way towards the -x face, as it appears on screen.
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + (towards.x - from.x) * 0.4, from.y + (towards.y - from.y) * 0.4, { steps: 8 });
  await page.mouse.up();
  const cut = Number(await page.getByLabel("x max").inputValue());
  const xMin = Math.min(...xs);
  process.stdout.write(`x max dragged from ${xMax.toFixed(4)} to ${cut} (x range ${xMin.toFixed(4)}…${xMax.toFixed(4)})\n`);
  expect(cut).toBeLessThan(xMax - (xMax - xMin) * 0.2);
  expect(cut).toBeGreaterThan(xMin + (xMax - xMin) * 0.2);
  // The handle moved with the face.
  const moved = await centre("x-max");
  expect(Math.hypot(moved.x - from.x, moved.y - from.y)).toBeGreaterThan(Math.hypot(towards.x - from.x, towards.y - from.y) * 0.3);

  // Deleting outside keeps exactly the splats up to the face (the field shows 4 decimals of it).
  await page.getByRole("button", { name: "Delete outside box" }).click();
  await expect(page.getByTestId("splat-editor-count")).not.toHaveText(count(SPLATS), { timeout: 90_000 });
  const kept = Number((await page.getByTestId("splat-editor-count").textContent())!.split(" of ")[0].replace(/,/g, ""));
  expect(kept).toBeGreaterThanOrEqual(xs.filter((x) => x <= cut - 1e-4).length);
  expect(kept).toBeLessThanOrEqual(xs.filter((x) => x <= cut + 1e-4).length);
  await page.screenshot({ path: test.info().outputPath("splat-editor-dragged.png") });
});
