import { randomBytes } from "node:crypto";
import { expect, test as base, type Page } from "@playwright/test";
import { PNG } from "pngjs";

/**
 * Shared journey helpers. Every page collects console errors and uncaught exceptions; a test that
 * produced any fails (STYLE: any console.error fails a test).
 */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
    await use(errors);
    expect(errors, "console errors on the page").toEqual([]);
  },
});
export { expect };

/** Registers a new account through the real /auth page and the Auth emulator, verifies it, signs in. */
export async function registerAndSignIn(page: Page, { name = "E2E Creator" } = {}) {
  const email = `e2e-${randomBytes(5).toString("hex")}@example.com`;
  await page.goto("/auth?redirect=%2Fdashboard");
  await page.getByRole("tab", { name: "Register" }).click();
  await page.getByLabel("Display name").fill(name);
  await page.locator("#register-email").fill(email);
  await page.locator("#register-password").fill("a-strong-password-123");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Verify your email" })).toBeVisible();
  const link = page.getByTestId("local-verification").getByRole("link");
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  const verification = await page.request.get(href!);
  expect(verification.ok()).toBe(true);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL("**/dashboard");
  return { email };
}

/**
 * Share of the element's pixels that differ clearly from the given background colour: a canvas
 * that only shows its background scores ~0.
 */
export async function shareOfNonBackgroundPixels(page: Page, selector: string, background: [number, number, number]) {
  const png = PNG.sync.read(await page.locator(selector).screenshot());
  let differing = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const d =
      Math.abs(png.data[i] - background[0]) + Math.abs(png.data[i + 1] - background[1]) + Math.abs(png.data[i + 2] - background[2]);
    if (d > 40) differing++;
  }
  return differing / (png.width * png.height);
}
