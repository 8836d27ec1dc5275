import type { Page } from "@playwright/test";
import { expect, registerAndSignIn, test } from "./fixtures";

/** On /auth's sign-in form: the old password is refused, the current one signs in. */
async function expectOnlyTheNewPasswordSignsIn(page: Page, email: string, passwords: { old: string; current: string }) {
  await page.locator("#signin-email").fill(email);
  await page.locator("#signin-password").fill(passwords.old);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("The email or password is not right.")).toBeVisible();
  await page.locator("#signin-password").fill(passwords.current);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
}

// Issue 18 item 3: "Forgot password?" on /auth — Firebase's reset flow; in local mode (the Auth emulator
// sends no email) the page shows the reset link, which opens our own "Choose a new password" form.

test("forgot password: the reset link (shown in local mode) sets a new password that signs in, the old one no longer does, and nobody learns whether an address has an account", async ({ page, consoleErrors }) => {
  const { email } = await registerAndSignIn(page, { name: "Forgetful" });
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByText("Logout success.")).toBeVisible();
  await page.goto("/auth");
  await page.getByRole("button", { name: "Forgot password?" }).click();

  // An address without an account gets the same answer and no link.
  const stranger = `nobody-${Date.now()}@example.com`;
  await page.locator("#reset-email").fill(stranger);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText(`If ${stranger} has an account, we sent it a link to choose a new password.`)).toBeVisible();
  await expect(page.getByTestId("local-password-reset")).toHaveCount(0);

  await page.locator("#reset-email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText(`If ${email} has an account, we sent it a link to choose a new password.`)).toBeVisible();
  const link = page.getByTestId("local-password-reset").getByRole("link");
  const href = await link.getAttribute("href");
  expect(href).toMatch(/^\/auth\?mode=resetPassword&oobCode=/);
  await link.click();
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  // The site's rule holds here too: Firebase would take 6 characters.
  await page.locator("#new-password").fill("new-pw-45");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.locator(".p-inline-message-error")).toHaveText("Use at least 10 characters.");
  await page.locator("#new-password").fill("a-new-password-456");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("Your password has been changed.")).toBeVisible();

  // The link works once.
  await page.goto(href!);
  await expect(page.getByText("This link is not valid any more (it may have been used already). Ask for a new one.")).toBeVisible();

  await page.getByRole("link", { name: "Back to sign in" }).click();
  await expectOnlyTheNewPasswordSignsIn(page, email, { old: "a-strong-password-123", current: "a-new-password-456" });
  // The browser logs the Auth service's refusals (HTTP 400: the unknown address, the used code, the old
  // password); nothing else.
  expect(consoleErrors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  consoleErrors.splice(0, consoleErrors.length);
});

test("registering asks for at least 10 characters and no well-known password, with a strength hint that says what would help, and lands on the dashboard's first step", async ({ page, consoleErrors }) => {
  const email = `e2e-rule-${Date.now()}@example.com`;
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Register" }).click();
  await page.locator("#register-email").fill(email);
  const strength = page.getByTestId("register-password-strength");
  await expect(strength).toContainText("At least 10 characters.");

  await page.locator("#register-password").fill("tulip1234");
  await expect(strength).toHaveAttribute("data-strength", "too short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator(".p-inline-message-error")).toHaveText("Use at least 10 characters.");

  await page.locator("#register-password").fill("qwerty123456");
  await expect(strength).toHaveAttribute("data-strength", "weak");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator(".p-inline-message-error")).toHaveText("This password is one of the first that attackers try. Choose another.");

  // Neither attempt made an account: signing in with them fails.
  await page.getByRole("tab", { name: "Sign in" }).click();
  await page.locator("#signin-email").fill(email);
  await page.locator("#signin-password").fill("qwerty123456");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.locator(".p-inline-message-error")).toHaveText("The email or password is not right.");

  await page.getByRole("tab", { name: "Register" }).click();
  await page.locator("#register-password").fill("tulipgarden");
  await expect(strength).toHaveAttribute("data-strength", "fair");
  await expect(strength).toContainText("a few more characters or another word would make it strong");
  await page.locator("#register-password").fill("Tulip-Garden-77-Ferry");
  await expect(strength).toHaveAttribute("data-strength", "strong");
  await expect(strength).toContainText("Strength: strong.");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Verify your email" })).toBeVisible();

  // Verified, the new creator lands on the dashboard (no redirect was asked for), whose one next step is the upload.
  const verify = page.getByTestId("local-verification").getByRole("link");
  expect((await page.request.get((await verify.getAttribute("href"))!)).ok()).toBe(true);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL("**/dashboard");
  const firstStep = page.getByTestId("first-step");
  await expect(firstStep.getByRole("heading", { name: "Make your first model" })).toBeVisible();
  await expect(firstStep).toContainText("You have no models yet.");
  await firstStep.getByRole("button", { name: "Upload a video, photos or a model" }).click();
  await expect(page.getByTestId("upload-dialog")).toBeVisible();
  // The browser logs the Auth service's one refusal (HTTP 400: the sign-in with no account); nothing else.
  expect(consoleErrors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  consoleErrors.splice(0, consoleErrors.length);
});

test("settings: a creator changes the password with the current one, under the same rule; the old one stops working", async ({ page, consoleErrors }) => {
  const { email } = await registerAndSignIn(page, { name: "Rotating" });
  await page.goto("/settings");
  const panel = page.getByRole("form", { name: "Change password" });
  await panel.locator("#current-password").fill("not-my-password-000");
  await panel.locator("#changed-password").fill("Fresh-Password-2026");
  await panel.getByRole("button", { name: "Change password" }).click();
  await expect(panel.locator(".p-inline-message-error")).toHaveText("Your current password is not right.");

  await panel.locator("#current-password").fill("a-strong-password-123");
  await panel.locator("#changed-password").fill("fresh-pw");
  await expect(page.getByTestId("changed-password-strength")).toHaveAttribute("data-strength", "too short");
  await panel.getByRole("button", { name: "Change password" }).click();
  await expect(panel.locator(".p-inline-message-error")).toHaveText("Use at least 10 characters.");

  await panel.locator("#changed-password").fill("Fresh-Password-2026");
  await panel.getByRole("button", { name: "Change password" }).click();
  await expect(panel.locator(".p-inline-message-success")).toHaveText("Your password was changed. Use the new one next time you sign in.");

  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByText("Logout success.")).toBeVisible();
  await page.goto("/auth");
  await expectOnlyTheNewPasswordSignsIn(page, email, { old: "a-strong-password-123", current: "Fresh-Password-2026" });
  // The browser logs the Auth service's refusals (HTTP 400: the wrong current password, the old password).
  expect(consoleErrors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  consoleErrors.splice(0, consoleErrors.length);
});

test("settings: a creator changes the e-mail address with the password; it changes once the link sent to the new address is opened, and the account signs in with it", async ({
  page,
  consoleErrors,
}) => {
  const { email } = await registerAndSignIn(page, { name: "Moving" });
  const newEmail = `moved-${Date.now()}@example.com`;
  await page.goto("/settings");
  await expect(page.getByTestId("boot-spinner")).toHaveCount(0);
  const panel = page.getByRole("form", { name: "Change email address" });
  await panel.getByLabel("New email address").fill(email.toUpperCase());
  await panel.locator("#email-password").fill("a-strong-password-123");
  await panel.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(panel.locator(".p-inline-message-error")).toHaveText("This is the address you have now.");

  await panel.getByLabel("New email address").fill(newEmail);
  await panel.locator("#email-password").fill("not-my-password-000");
  await panel.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(panel.locator(".p-inline-message-error")).toHaveText("Your password is not right.");

  await panel.locator("#email-password").fill("a-strong-password-123");
  await panel.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(panel.locator(".p-inline-message-success")).toHaveText(
    `We sent a link to ${newEmail}. Your address changes when you open it; until then, sign in with ${email}.`,
  );
  const href = await panel.getByTestId("local-email-change").getByRole("link").getAttribute("href");
  // Nothing changes before the link is opened.
  await page.reload();
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  expect((await page.request.get(href!)).ok()).toBe(true);

  // The old session belongs to the old address: sign in again, with the new one.
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByText("Logout success.")).toBeVisible();
  await page.goto("/auth?redirect=%2Fsettings");
  await page.locator("#signin-email").fill(email);
  await page.locator("#signin-password").fill("a-strong-password-123");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("The email or password is not right.")).toBeVisible();
  await page.locator("#signin-email").fill(newEmail);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL("**/settings");
  // Our copy of the address followed (the settings page reads it from our database).
  await expect(page.getByText(newEmail, { exact: true })).toBeVisible();
  await expect(page.getByTestId("email-verification")).toHaveText("Verified");
  // The browser logs the Auth service's refusals (HTTP 400: the wrong password, the old address); nothing else.
  expect(consoleErrors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  consoleErrors.splice(0, consoleErrors.length);
});
