// Downloads (issue 18 item 1) in the browser: the owner downloads the model they uploaded from the model
// page's download menu and gets the same bytes back, plus a USDZ made in the browser; a visitor downloads
// a public scan's outputs once its owner allows it, and they parse (PLY header, GLB header).
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Download, Page } from "@playwright/test";
import { SHARED_DATA } from "../setup/shared-data";
import { expect, registerAndSignIn, test } from "./fixtures";
import { attachScanMesh, callApi, createCreator, disconnect, type Creator } from "./site-seed";

const catGlb = readFileSync(path.join(SHARED_DATA, "models/cat.glb"));
const guitarPly = readFileSync(path.join(SHARED_DATA, "splats/guitar.ply"));

test.afterAll(async () => {
  await disconnect();
});

async function downloadVia(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  const file = await download.path();
  return { download, bytes: await readFile(file) };
}

const api = (creator: Creator, method: string, pathName: string, body?: unknown) => callApi(method, pathName, creator.token, body);

async function uploadAs(creator: Creator, name: string, modelType: "glb" | "ply", bytes: Buffer): Promise<string> {
  const { item_id: itemId } = await api(creator, "POST", "/item", { model_type: modelType, upload_type: "model", name });
  const link = await api(creator, "GET", `/upload/item/${itemId}?uploadType=model`);
  const put = await fetch(link.url, { method: "PUT", body: new Uint8Array(bytes) });
  if (put.status !== 200) throw new Error(`PUT ${name}: ${put.status}`);
  await api(creator, "POST", `/item/${itemId}/file/size`, { size: bytes.length });
  return itemId;
}

test("the owner downloads the uploaded model and its USDZ from the model page's download menu", async ({ page, consoleErrors }) => {
  test.setTimeout(120_000);
  await registerAndSignIn(page);
  await page.getByTestId("new-model").click();
  await page.getByTestId("upload-input").setInputFiles(path.join(SHARED_DATA, "models/cat.glb"));
  await page.getByTestId("upload-dialog").getByRole("button", { name: "Upload" }).click();
  await page.waitForURL(/\/item\/[0-9a-f-]{36}$/);

  const panel = page.getByRole("region", { name: "Download" });
  await expect(panel.getByTestId("allow-downloads")).not.toBeChecked();
  await panel.getByRole("button", { name: "Download files" }).click();
  const menu = panel.getByTestId("download-menu");
  const link = menu.locator('[data-testid="download-link"][data-kind="model"]');
  await expect(link).toHaveText("Model file (as uploaded)");

  const model = await downloadVia(page, () => link.click());
  expect(model.download.suggestedFilename()).toBe("cat.glb");
  expect(model.bytes.equals(catGlb)).toBe(true);

  const usdz = await downloadVia(page, () => menu.getByTestId("download-usdz").click());
  expect(usdz.download.suggestedFilename()).toBe("cat.usdz");
  // A USDZ is an uncompressed zip whose first file is the USD stage.
  expect(usdz.bytes.readUInt32LE(0)).toBe(0x04034b50);
  const nameLength = usdz.bytes.readUInt16LE(26);
  expect(usdz.bytes.subarray(30, 30 + nameLength).toString("utf8")).toBe("model.usda");

  // The owner lets others download it; the setting sticks.
  // The box follows the saved item, so it is clicked (not check()ed) and shows checked once saved.
  await panel.getByTestId("allow-downloads").click();
  await expect(page.getByText("Others can now download this model.")).toBeVisible();
  await expect(panel.getByTestId("allow-downloads")).toBeChecked();
  await page.reload();
  await expect(page.getByRole("region", { name: "Download" }).getByTestId("allow-downloads")).toBeChecked();
  expect(consoleErrors).toEqual([]);
});

test("a visitor downloads a public scan's splat and meshes once its owner allows it, and they parse", async ({ page, consoleErrors }) => {
  test.setTimeout(120_000);
  const owner = await createCreator("Scan Owner");
  const scanItemId = await uploadAs(owner, "Guitar scan", "ply", guitarPly);
  const meshItemId = await uploadAs(owner, "Guitar scan mesh", "glb", catGlb);
  await attachScanMesh({ scanItemId, meshItemId });
  await api(owner, "PATCH", `/item/${scanItemId}`, { visibility: "public" });

  await page.goto(`/item/${scanItemId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Guitar scan" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Download" })).toHaveCount(0); // downloads are off by default

  await api(owner, "PATCH", `/item/${scanItemId}`, { allow_downloads: true });
  await page.reload();
  const panel = page.getByRole("region", { name: "Download" });
  await expect(panel.getByTestId("allow-downloads")).toHaveCount(0); // the setting is the owner's
  await panel.getByRole("button", { name: "Download files" }).click();
  const menu = panel.getByTestId("download-menu");

  const splat = await downloadVia(page, () => menu.locator('[data-kind="splat"]').click());
  expect(splat.download.suggestedFilename()).toBe("Guitar scan.ply");
  expect(splat.bytes.subarray(0, 4).toString("latin1")).toBe("ply\n");
  expect(splat.bytes.equals(guitarPly)).toBe(true);

  for (const kind of ["mesh", "mesh_lite"]) {
    const mesh = await downloadVia(page, () => menu.locator(`[data-kind="${kind}"]`).click());
    expect(mesh.download.suggestedFilename()).toBe(kind === "mesh" ? "Guitar scan mesh.glb" : "Guitar scan mesh lite.glb");
    expect(mesh.bytes.subarray(0, 4).toString("latin1")).toBe("glTF");
    expect(mesh.bytes.readUInt32LE(4)).toBe(2);
    expect(mesh.bytes.readUInt32LE(8)).toBe(mesh.bytes.length);
    expect(mesh.bytes.equals(catGlb)).toBe(true);
  }
  expect(consoleErrors).toEqual([]);
});
