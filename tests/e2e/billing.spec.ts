import { readFileSync } from "node:fs";
import { EMULATOR_HOST } from "../setup/config";
import { ensureTestMedia, type TestMedia } from "../setup/media";
import { expect, registerAndSignIn, test } from "./fixtures";

// Issue 8 in Chromium: a free user spends their three scans, is told (SPEC §8's message, the Upload
// dialog's scan uploads disabled, a 100 % notification), buys a scan package through Stripe Checkout
// (Stripe faked at the network edge: its hosted page sends the signed checkout.session.completed webhook
// to the app, then returns the browser), and can start a scan again.
const NO_SCANS = "You have used all your available scans for this billing period. Please wait for the next cycle or upgrade your plan for more scans.";
const VIDEO_DONE = "Video upload successful. Model is being processed, please give us around 20-40 mins...";

let media: TestMedia;
test.beforeAll(async () => {
  media = await ensureTestMedia();
});

async function idToken(email: string): Promise<string> {
  const res = await fetch(`http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: "a-strong-password-123", returnSecureToken: true }),
  });
  return (await res.json()).idToken;
}

test("a free user runs out of scans, buys a scan package through Stripe Checkout, and scans again", async ({ page, consoleErrors }) => {
  test.setTimeout(240_000);
  const { email } = await registerAndSignIn(page, { name: "Billing Buyer" });
  const dialog = page.getByTestId("upload-dialog");
  const input = page.getByTestId("upload-input");
  const upload = dialog.getByRole("button", { name: "Upload", exact: true });
  const quota = dialog.getByTestId("upload-scan-quota");
  const video = { name: "clip.mp4", mimeType: "video/mp4", buffer: readFileSync(media.tiny) };
  const openDialog = async () => {
    await page.getByTestId("new-model").click();
    await expect(dialog).toBeVisible();
    await expect(quota).toBeVisible(); // quotas loaded
  };
  const quotas = async () => {
    const res = await page.request.get("/v1/user/quotas", { headers: { Authorization: `Bearer ${await idToken(email)}` } });
    return (await res.json()).data;
  };
  /** One video scan through the Upload dialog; answers when the server has reserved its credit. */
  const scanVideo = async (creditsLeftAfter: number) => {
    await openDialog();
    await input.setInputFiles(video);
    await expect(dialog.getByRole("list", { name: "Selected files" }).getByText("clip.mp4")).toBeVisible();
    await upload.click();
    await expect(dialog).toBeHidden();
    await expect(page.locator(".p-toast").getByText(VIDEO_DONE, { exact: true }).first()).toBeVisible();
    await expect.poll(async () => (await quotas()).total_scan_credit).toBe(creditsLeftAfter);
    await expect(page).toHaveURL(/\/dashboard$/);
  };

  await test.step("three scans use the free plan's three credits", async () => {
    for (const left of [2, 1, 0]) await scanVideo(left);
    expect(await quotas()).toMatchObject({ scan_quota: 3, scan_credit: 0, topup_scan_credit: 0, total_scan_credit: 0 });
  });

  await test.step("out of scans: SPEC's message, scan uploads disabled, and a notification", async () => {
    await page.goto("/dashboard");
    await openDialog();
    await expect(quota).toHaveText("Scans left: 0/3");
    await expect(dialog.getByText(NO_SCANS)).toBeVisible();
    await input.setInputFiles(video);
    await expect(dialog.getByRole("list", { name: "Selected files" }).getByText("clip.mp4")).toBeVisible();
    await expect(upload).toBeDisabled();
    await dialog.getByRole("button", { name: "Close" }).click();
    await page.getByTestId("notifications-bell").click();
    await expect(page.getByTestId("notifications-panel").getByTestId("notification").first()).toContainText("You have used all 3 scans of this billing period");
  });

  await test.step("buys 5 scans: Stripe's checkout page, payment confirmed by the webhook, back on the top-up page", async () => {
    await page.goto("/topup");
    await page.getByRole("button", { name: "Buy 5 scans for $15" }).click();
    await expect(page.getByRole("heading", { name: "Fake Stripe Checkout (test)" })).toBeVisible();
    await expect(page.getByTestId("fake-checkout-item")).toHaveText("Scanroom 5 scans: 15.00 USD");
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL(/\/topup\?checkout=success/);
    await expect(page.getByTestId("checkout-status")).toHaveText("Payment confirmed: 5 scan credits added to your account.");
    expect(await quotas()).toMatchObject({ scan_credit: 0, topup_scan_credit: 5, total_scan_credit: 5 });
  });

  await test.step("the dashboard shows the purchase in the credit history, and a scan uploads again", async () => {
    await page.goto("/dashboard");
    await expect(page.getByTestId("recent-credit").first()).toContainText("Top-up · 5 scan credits");
    await expect(page.getByTestId("recent-credit").first()).toContainText("+5");
    await openDialog();
    await expect(quota).toHaveText("Scans left: 0/3 (+5)");
    await expect(dialog.getByText(NO_SCANS)).toHaveCount(0);
    await dialog.getByRole("button", { name: "Close" }).click();
    await scanVideo(4);
    expect(await quotas()).toMatchObject({ scan_credit: 0, topup_scan_credit: 4, total_scan_credit: 4 });
  });

  await test.step("settings explain every number: the ledger's entries and reasons", async () => {
    await page.goto("/settings");
    const history = page.getByTestId("ledger-history");
    await expect(history.getByTestId("ledger-entry")).toHaveCount(7); // grants (scan, link), 4 reservations, 1 top-up
    await expect(history).toContainText("Bought 5 scans (Stripe payment)");
    await expect(page.getByTestId("plan-in-force")).toHaveText("Free");
  });
  expect(consoleErrors).toEqual([]);
});

test("pricing offers checkout for paid plans to a signed-in free user", async ({ page, consoleErrors }) => {
  await registerAndSignIn(page, { name: "Plan Shopper" });
  await page.goto("/pricing");
  await expect(page.locator('[data-plan="free"]').getByTestId("current-plan-badge")).toBeVisible();
  for (const name of ["Starter", "Growth", "Pro"]) await expect(page.getByRole("button", { name: `Choose ${name}` })).toBeEnabled();
  await expect(page.getByTestId("checkout-note")).toHaveCount(0);
  await page.getByRole("button", { name: "Choose Growth" }).click();
  await expect(page.getByTestId("fake-checkout-item")).toHaveText("Scanroom Growth: 29.00 USD");
  await page.getByRole("link", { name: "Cancel" }).click();
  await page.waitForURL(/\/pricing\?checkout=cancelled/);
  await expect(page.getByTestId("checkout-status")).toHaveText("Checkout cancelled: nothing was charged.");
  expect(consoleErrors).toEqual([]);
});
