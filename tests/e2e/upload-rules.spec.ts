import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { Page } from "@playwright/test";
import { databaseUrl, EMULATOR_HOST } from "../setup/config";
import { ensureTestMedia, type TestMedia } from "../setup/media";
import { SHARED_DATA } from "../setup/shared-data";
import { expect, registerAndSignIn, test } from "./fixtures";

// SPEC §2, §4, §5, §8, §9 in Chromium with real media (tests/setup/media.ts): every rule of the
// Upload dialog shows its dialog or toast; a valid video and a valid image set reach /dashboard as
// queued scans, each for one scan credit. One registered user for the whole file.
const PASSWORD = "a-strong-password-123"; // the one registerAndSignIn uses
const E2E_DATABASE = `scanroom_e2e_${Number(process.env.E2E_PORT ?? 3100)}`;

const MESSAGES = {
  mixed: "Cannot upload multiple types of files at the same time.",
  oneOnly: "Cannot upload more than one file of the selected type at once.",
  aspect: "Only 16:9 (landscape or portrait) videos are supported.",
  trimmed: "Video length exceeded. The video will be trimmed, only the first 3 minutes will be used.",
  metadata: "Error loading video metadata.",
  tooMany: "Number of selected images exceeded the maximum of 300 files.",
  tooFew: "Number of selected images does not meet the minimum count of 20 images.",
  noScans: "You have used all your available scans for this billing period. Please wait for the next cycle or upgrade your plan for more scans.",
  videoDone: "Video upload successful. Model is being processed, please give us around 20-40 mins...",
  imagesDone: "Images uploaded and processing started.",
};

// Network failures this journey causes on purpose (a dropped part, a refused scan); any other
// console error fails the test, as with the shared consoleErrors fixture.
const SCAN_PENDING = /^(queued|processing)$/;
const EXPECTED_NETWORK_ERRORS = [/net::ERR_CONNECTION_RESET/, /status of 402/];

let media: TestMedia;
test.beforeAll(async () => {
  media = await ensureTestMedia();
});

async function sql(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl(E2E_DATABASE) });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A fresh ID token for the signed-in user, from the Auth emulator, to read the API as the browser does. */
async function idToken(email: string): Promise<string> {
  const res = await fetch(`http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
  });
  return (await res.json()).idToken;
}

async function apiGet(page: Page, token: string, apiPath: string) {
  const res = await page.request.get(`/v1${apiPath}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return (await res.json()).data;
}

const sampleGlb = path.join(SHARED_DATA, "models/cat.glb");
const file = (p: string, mimeType: string) => ({ name: path.basename(p), mimeType, buffer: readFileSync(p) });
const jpegs = (from: number, to: number) => media.images.slice(from, to);

test("the Upload dialog enforces every scan rule, and valid scans reach the dashboard queued for one credit each", async ({ page }) => {
  test.setTimeout(300_000);
  const { email } = await registerAndSignIn(page);
  const consoleErrors: string[] = [];
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  page.on("pageerror", (e) => consoleErrors.push(`pageerror: ${e.message}`));
  const token = await idToken(email);
  expect(await apiGet(page, token, "/user/quotas")).toMatchObject({ scan_quota: 3, total_scan_credit: 3 });

  const dialog = page.getByTestId("upload-dialog");
  const input = page.getByTestId("upload-input");
  const upload = dialog.getByRole("button", { name: "Upload", exact: true });
  const fileList = dialog.getByRole("list", { name: "Selected files" });
  const toast = (text: string) => page.locator(".p-toast").getByText(text, { exact: true });
  const openDialog = async () => {
    await page.getByTestId("new-model").click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("upload-scan-quota")).toBeVisible(); // quotas loaded
  };
  const clear = () => dialog.getByRole("button", { name: "Clear" }).click();
  const closeDialog = async () => {
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
  };

  await test.step("mixed types and a second video are refused, the selection reverted", async () => {
    await openDialog();
    await expect(dialog.getByTestId("upload-scan-quota")).toHaveText("Scans left: 3/3");
    await input.setInputFiles([file(media.images[0], "image/jpeg"), file(media.portrait, "video/mp4")]);
    await expect(toast(MESSAGES.mixed)).toBeVisible();
    await input.setInputFiles([file(media.portrait, "video/mp4"), file(media.tiny, "video/mp4")]);
    await expect(toast(MESSAGES.oneOnly)).toBeVisible();
    await input.setInputFiles({ name: "scan", mimeType: "application/octet-stream", buffer: Buffer.from("no extension") });
    await expect(toast("The file must have an extension.")).toBeVisible();
    await expect(fileList).toHaveCount(0);
  });

  await test.step("a 4:3 video shows 'Currently not supported.'", async () => {
    await input.setInputFiles(file(media.fourThree, "video/mp4"));
    const notice = page.getByRole("dialog", { name: "Currently not supported." });
    await expect(notice).toBeVisible();
    await expect(notice.getByText(MESSAGES.aspect)).toBeVisible();
    await notice.getByRole("button", { name: "OK" }).click();
    await expect(fileList).toHaveCount(0);
  });

  await test.step("a file the browser cannot read shows 'Error loading video metadata.'", async () => {
    await input.setInputFiles({ name: "broken.mp4", mimeType: "video/mp4", buffer: Buffer.from("not a video at all ".repeat(500)) });
    await expect(toast(MESSAGES.metadata)).toBeVisible();
    await expect(fileList).toHaveCount(0);
  });

  await test.step("a 200 s video asks 'Max Video Length Exceeded': cancel drops it, Continue keeps it with the info toast", async () => {
    const confirm = page.getByRole("alertdialog", { name: "Max Video Length Exceeded" }).or(page.getByRole("dialog", { name: "Max Video Length Exceeded" }));
    await input.setInputFiles(file(media.long, "video/mp4"));
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(fileList).toHaveCount(0);
    await input.setInputFiles(file(media.long, "video/mp4"));
    await confirm.getByRole("button", { name: "Continue" }).click();
    await expect(toast(MESSAGES.trimmed)).toBeVisible();
    await expect(fileList.getByText(path.basename(media.long))).toBeVisible();
    await expect(upload).toBeEnabled();
    await expect(dialog.getByRole("button", { name: "Add More Files" })).toHaveCount(0);
    await clear();
  });

  await test.step("301 images show 'Too Many Images'; 19 disable Upload with the minimum message; a 20th enables it", async () => {
    await input.setInputFiles(jpegs(0, 301));
    const notice = page.getByRole("dialog", { name: "Too Many Images" });
    await expect(notice.getByText(MESSAGES.tooMany)).toBeVisible();
    await notice.getByRole("button", { name: "OK" }).click();
    await expect(fileList).toHaveCount(0);

    await input.setInputFiles(jpegs(0, 19));
    await expect(fileList.getByRole("listitem")).toHaveCount(19);
    await expect(dialog.getByText(MESSAGES.tooFew)).toBeVisible();
    await expect(upload).toBeDisabled();
    await input.setInputFiles({ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("meeting notes, renamed .jpg") });
    await expect(toast("notes.jpg is not a JPEG, PNG, WebP, HEIC, TIFF or BMP image.")).toBeVisible();
    await expect(fileList.getByRole("listitem")).toHaveCount(19);
    await expect(dialog.getByRole("button", { name: "Add More Files" })).toBeVisible();
    await input.setInputFiles(jpegs(19, 20));
    await expect(fileList.getByRole("listitem")).toHaveCount(20);
    await expect(dialog.getByText(MESSAGES.tooFew)).toHaveCount(0);
    await expect(upload).toBeEnabled();
    await dialog.getByRole("button", { name: "Remove image-020.jpg" }).click();
    await expect(upload).toBeDisabled();
    await clear();
  });

  await test.step("a 16:9 video uploads in parts, survives a dropped part, and reaches the dashboard queued", async () => {
    const partRequests = new Map<string, number>();
    await page.route("**/storage/items/**/video/*.parts/*", async (route) => {
      const part = new URL(route.request().url()).pathname.split("/").pop()!;
      const seen = (partRequests.get(part) ?? 0) + 1;
      partRequests.set(part, seen);
      if (part === "00002" && seen === 1) return route.abort("connectionreset");
      return route.continue();
    });
    await input.setInputFiles(file(media.landscape, "video/mp4"));
    await expect(fileList.getByText("landscape-1920x1080.mp4")).toBeVisible();
    await expect(fileList.getByText("video", { exact: true })).toBeVisible();
    await upload.click();
    await page.waitForURL(/\/dashboard/);
    await expect(toast(MESSAGES.videoDone)).toBeVisible();
    expect(Object.fromEntries(partRequests)).toEqual({ "00001": 1, "00002": 2 });
    await page.unroute("**/storage/items/**/video/*.parts/*");

    await expect(page.getByRole("heading", { name: "landscape-1920x1080" })).toBeVisible();
    const { items } = await apiGet(page, token, "/items?owner=me");
    // Queued for the scan pipeline (or already picked up by a worker): never a fake finished model.
    expect(items).toEqual([expect.objectContaining({ name: "landscape-1920x1080", upload_type: "video", status: expect.stringMatching(SCAN_PENDING) })]);
    expect(await apiGet(page, token, "/user/quotas")).toMatchObject({ scan_credit: 2, total_scan_credit: 2 });
  });

  await test.step("20 images upload several at a time with per-file and total progress, and reach the dashboard queued", async () => {
    await page.route("**/storage/items/**/images/*", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 250)); // slow enough to watch the progress
      await route.continue();
    });
    await openDialog();
    await expect(dialog.getByTestId("upload-scan-quota")).toHaveText("Scans left: 2/3");
    await input.setInputFiles(jpegs(0, 20));
    await upload.click();
    await expect(dialog.getByTestId("upload-total-progress")).toBeVisible();
    await expect(fileList.locator(".upload-file-progress")).toHaveCount(20);
    await page.waitForURL(/\/dashboard/);
    await expect(toast(MESSAGES.imagesDone)).toBeVisible();
    await page.unroute("**/storage/items/**/images/*");

    await expect(page.getByRole("heading", { name: "image-001.jpg (Image Set)" })).toBeVisible();
    const { items } = await apiGet(page, token, "/items?owner=me");
    expect(items[0]).toMatchObject({ name: "image-001.jpg (Image Set)", upload_type: "image", status: expect.stringMatching(SCAN_PENDING) });
    expect(await apiGet(page, token, "/user/quotas")).toMatchObject({ scan_credit: 1, total_scan_credit: 1 });
  });

  await test.step("a scan the server refuses deletes the created item and shows 'File not uploaded. Error: …'", async () => {
    await openDialog();
    await expect(dialog.getByTestId("upload-scan-quota")).toHaveText("Scans left: 1/3");
    // The last credit goes elsewhere while the dialog is open: the server has the last word.
    const [{ id: userId }] = await sql(`SELECT id FROM "User" WHERE email = $1`, [email]);
    await sql(
      `INSERT INTO "LedgerEntry" (id, "userId", "creditType", bucket, kind, amount, reason, "periodStart")
       SELECT gen_random_uuid(), $1, 'scan', 'period', 'adjustment', -1, 'e2e: spend the last scan', "currentPeriodStart"
       FROM "Subscription" WHERE "userId" = $1`,
      [userId],
    );
    await input.setInputFiles(file(media.portrait, "video/mp4"));
    await upload.click();
    await expect(toast(`File not uploaded. Error: ${MESSAGES.noScans}`)).toBeVisible();
    const { items } = await apiGet(page, token, "/items?owner=me");
    expect(items).toHaveLength(2);
  });

  await test.step("with no scans left, scan uploads are disabled with SPEC's message — unless scan_quota is -1", async () => {
    await closeDialog();
    await openDialog();
    await expect(dialog.getByText(MESSAGES.noScans)).toBeVisible();
    await expect(dialog.getByRole("link", { name: "See plans and scan packages" })).toHaveAttribute("href", "/pricing");
    // Someone uploading a model file is not told about scans.
    await input.setInputFiles({ name: "chair.glb", mimeType: "model/gltf-binary", buffer: readFileSync(sampleGlb) });
    await expect(fileList.getByText("chair.glb")).toBeVisible();
    await expect(dialog.getByText(MESSAGES.noScans)).toHaveCount(0);
    await dialog.getByRole("button", { name: "Clear" }).click();
    await input.setInputFiles(file(media.portrait, "video/mp4"));
    await expect(fileList.getByText(path.basename(media.portrait))).toBeVisible();
    await expect(dialog.getByText(MESSAGES.noScans)).toBeVisible();
    await expect(upload).toBeDisabled();

    await sql(`UPDATE "Subscription" SET "planId" = (SELECT id FROM "Plan" WHERE "planType" = 'pro') WHERE "userId" = (SELECT id FROM "User" WHERE email = $1)`, [email]);
    await closeDialog();
    await openDialog();
    await expect(dialog.getByTestId("upload-scan-quota")).toHaveText("Scans left: unlimited");
    await expect(dialog.getByText(MESSAGES.noScans)).toHaveCount(0);
    await input.setInputFiles(file(media.portrait, "video/mp4"));
    await expect(upload).toBeEnabled();
  });

  expect(consoleErrors.filter((e) => !EXPECTED_NETWORK_ERRORS.some((re) => re.test(e)))).toEqual([]);
});
