import { mkdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { Locator, Page } from "@playwright/test";
import { databaseUrl, EMULATOR_HOST } from "../setup/config";
import { expect, registerAndSignIn, test } from "./fixtures";
import { createCreator, disconnect, uploadModel } from "./site-seed";

// Issue 17, items 15–17, as a user sees them in Chromium: the scan panel on a model page opened directly,
// the embed's "Made with Scanroom" badge clear of the viewer's buttons, and the edit page's right column
// fully on screen at 1440 and 390 px. Screenshots go to test-results/visible-defects/ for a person to look at.
const PASSWORD = "a-strong-password-123"; // the one registerAndSignIn uses
const E2E_DATABASE = `scanroom_e2e_${Number(process.env.E2E_PORT ?? 3100)}`;
const SHOTS = path.join("test-results", "visible-defects");
const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

test.afterAll(async () => {
  await disconnect();
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

/** A fresh ID token for an account registered through /auth, as the browser would hold it. */
async function idToken(email: string): Promise<string> {
  const res = await fetch(`http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
  });
  return (await res.json()).idToken;
}

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  // The boot spinner covers the page until the first sign-in state is known: a shot under it shows nothing.
  await expect(page.getByTestId("boot-spinner")).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, "element has a box").not.toBeNull();
  return box!;
}

test("a model page opened directly or reloaded shows the owner's scan panel (item 15)", async ({ page, consoleErrors }) => {
  const { email } = await registerAndSignIn(page, { name: "Scan Owner" });
  const [{ id: userId }] = await sql(`SELECT id FROM "User" WHERE email = $1`, [email]);
  // A photo scan that failed, as the worker leaves it: the panel shows why, the advice and a retry.
  const [{ id: itemId }] = await sql(
    `INSERT INTO "Item" (id, "ownerId", name, "modelType", "uploadType", status, "statusDetail", "updatedAt")
     VALUES (gen_random_uuid(), $1, 'Reloaded scan', 'ply', 'image', 'failed', 'Scan failed', now()) RETURNING id`,
    [userId],
  );
  await sql(
    `INSERT INTO "ScanJob" (id, "itemId", "userId", "inputKind", "inputPath", status, error, advice, "finishedAt", "updatedAt")
     VALUES (gen_random_uuid(), $1, $2, 'image', $3, 'failed', 'Too few photos could be placed.', 'Take photos with more overlap.', now(), now())`,
    [itemId, userId, `scans/${itemId}/images/`],
  );
  const scanAnswers: number[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === `/v1/scan/${itemId}`) scanAnswers.push(response.status());
  });

  await page.goto(`/item/${itemId}`);
  const panel = page.getByTestId("scan-panel");
  await expect(panel).toBeVisible();
  await expect(page.getByTestId("scan-state")).toHaveText(/^Failed: Too few photos could be placed\. Take photos with more overlap\./);
  await expect(panel.getByRole("button", { name: "Retry scan (1 credit)" })).toBeVisible();

  await page.reload();
  await expect(panel).toBeVisible();
  await expect(page.getByTestId("scan-state")).toContainText("Too few photos could be placed.");
  expect(scanAnswers.length).toBeGreaterThanOrEqual(2);
  expect(scanAnswers.filter((status) => status !== 200), "GET /v1/scan/{id} answers that were not 200").toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("the embed's badge stays clear of the viewer's buttons at every width (item 16)", async ({ page, consoleErrors }) => {
  const creator = await createCreator("Badge Owner");
  const itemId = await uploadModel(creator, { name: "Badge check" });
  for (const size of [...WIDTHS, { width: 300, height: 200 }]) {
    await page.setViewportSize(size);
    await page.goto(`/embed/${itemId}`);
    const toolbar = page.getByRole("toolbar", { name: "Viewer controls" });
    await expect(toolbar).toBeVisible({ timeout: 90_000 });
    const badge = page.getByTestId("embed-watermark");
    await expect(badge).toBeVisible();
    const badgeBox = await boxOf(badge);
    for (const button of await toolbar.getByRole("button").all()) {
      const buttonBox = await boxOf(button);
      expect(overlaps(badgeBox, buttonBox), `badge ${JSON.stringify(badgeBox)} over ${await button.getAttribute("aria-label")} ${JSON.stringify(buttonBox)} at ${size.width}px`).toBe(false);
      // The buttons themselves are wholly inside the frame, even a short one.
      expect(buttonBox.y + buttonBox.height, `${await button.getAttribute("aria-label")} inside the frame at ${size.width}x${size.height}`).toBeLessThanOrEqual(size.height);
    }
    // Wholly inside the frame, and the topmost element where it is drawn (nothing covers it).
    expect(badgeBox.x).toBeGreaterThanOrEqual(0);
    expect(badgeBox.y).toBeGreaterThanOrEqual(0);
    expect(badgeBox.x + badgeBox.width).toBeLessThanOrEqual(size.width);
    expect(badgeBox.y + badgeBox.height).toBeLessThanOrEqual(size.height);
    const onTop = await badge.evaluate((element) => {
      const r = element.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return hit !== null && element.contains(hit);
    });
    expect(onTop, `badge on top at ${size.width}px`).toBe(true);
    await shoot(page, `embed-badge-${size.width}`);
  }
  expect(consoleErrors).toEqual([]);
});

test("the edit page's right column is fully on screen at 1440 and 390 px (item 17)", async ({ page, consoleErrors }) => {
  const { email } = await registerAndSignIn(page, { name: "Edit Owner" });
  const token = await idToken(email);
  const [{ id: userId }] = await sql(`SELECT id FROM "User" WHERE email = $1`, [email]);
  const itemId = await uploadModel({ token, userId, name: "Edit Owner" }, { name: "Edit layout check" });
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto(`/item/${itemId}/edit`);
    const panels = page.locator(".edit-panels");
    await expect(page.getByLabel("Title")).toHaveValue("Edit layout check");
    // No horizontal overflow anywhere on the page: nothing is cut off at the right edge or scrolls sideways.
    const overflow = await page.evaluate(() => {
      const root = document.documentElement;
      const wide = [...document.querySelectorAll<HTMLElement>(".edit-page *")]
        .filter((element) => element.getClientRects().length > 0)
        .map((element) => ({ element, rect: element.getBoundingClientRect() }))
        .filter(({ rect }) => rect.right > root.clientWidth + 0.5 || rect.left < -0.5)
        .map(({ element, rect }) => `${element.tagName.toLowerCase()}.${element.className} ${Math.round(rect.left)}..${Math.round(rect.right)}`);
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
    });
    expect(overflow.wide, `elements past the ${size.width}px viewport`).toEqual([]);
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.clientWidth);
    // Every panel's content is reachable: each control in the column lies within the column's box.
    const column = await boxOf(panels);
    expect(column.x + column.width).toBeLessThanOrEqual(size.width + 0.5);
    for (const control of await panels.locator("input, select, textarea, button").all()) {
      if (!(await control.isVisible())) continue;
      const box = await boxOf(control);
      expect(box.x + box.width, `${await control.getAttribute("id")} at ${size.width}px`).toBeLessThanOrEqual(column.x + column.width + 0.5);
    }
    // The last panel can be scrolled into view and seen whole.
    const last = panels.locator(".edit-panel").last();
    await last.scrollIntoViewIfNeeded();
    await expect(last).toBeInViewport();
    await shoot(page, `edit-${size.width}`);
    await last.screenshot({ path: path.join(SHOTS, `edit-${size.width}-last-panel.png`) });
  }
  expect(consoleErrors).toEqual([]);
});

/** The header's visible controls, and whether they all sit on one row (same vertical band). */
async function headerRow(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector<HTMLElement>(".site-header")!;
    const controls = [...header.querySelectorAll<HTMLElement>(".site-logo, .site-menu-toggle, .site-header-actions > *")]
      .filter((element) => element.getClientRects().length > 0 && getComputedStyle(element).display !== "none")
      .map((element) => element.getBoundingClientRect());
    const tops = controls.map((rect) => rect.top);
    return { count: controls.length, spread: Math.max(...tops) - Math.min(...tops), right: Math.max(...controls.map((rect) => rect.right)), height: header.getBoundingClientRect().height };
  });
}

test("at 390 px the header is one row, signed out and signed in, its buttons still named (issue 18, item 7)", async ({ page, consoleErrors }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/tutorial");
  await expect(page.getByTestId("login-link")).toBeVisible();
  const signedOut = await headerRow(page);
  expect(signedOut.spread, "controls' tops differ (a second row)").toBeLessThan(12);
  expect(signedOut.right).toBeLessThanOrEqual(390);
  await shoot(page, "header-390-signed-out");

  await registerAndSignIn(page, { name: "Narrow Owner" });
  await page.goto("/tutorial");
  await expect(page.getByRole("button", { name: "New Model" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
  const signedIn = await headerRow(page);
  expect(signedIn.count).toBeGreaterThanOrEqual(6);
  expect(signedIn.spread, "controls' tops differ (a second row)").toBeLessThan(12);
  expect(signedIn.right).toBeLessThanOrEqual(390);
  await shoot(page, "header-390-signed-in");
  expect(consoleErrors).toEqual([]);
});

test("at 390 px the Builder's bar is one row of whole links, its logo still named", async ({ page, consoleErrors }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/builder");
  await expect(page.getByRole("link", { name: "Scanroom home" })).toBeVisible();
  const links = page.locator(".bare-bar a");
  await expect(links).toHaveCount(3);
  const boxes = await links.evaluateAll((elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      return { text: element.textContent?.trim() ?? "", middle: box.top + box.height / 2, height: box.height, right: box.right };
    }),
  );
  const middles = boxes.map((box) => box.middle);
  expect(Math.max(...middles) - Math.min(...middles), `one row: ${JSON.stringify(boxes)}`).toBeLessThan(6);
  for (const box of boxes.slice(1)) expect(box.height, `"${box.text}" on one line`).toBeLessThan(32);
  expect(Math.max(...boxes.map((box) => box.right))).toBeLessThanOrEqual(390);
  await shoot(page, "builder-bar-390");
  expect(consoleErrors).toEqual([]);
});

/** Elements of the page that reach past the viewport's sides, and the page's own sideways scroll. */
async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const wide = [...document.querySelectorAll<HTMLElement>("main *")]
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => ({ element, rect: element.getBoundingClientRect() }))
      .filter(({ rect }) => rect.right > root.clientWidth + 0.5 || rect.left < -0.5)
      .map(({ element, rect }) => `${element.tagName.toLowerCase()}#${element.id}.${element.className} ${Math.round(rect.left)}..${Math.round(rect.right)}`);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
  });
}

test("at 390 px the dashboard shows the models before the quotas and settings fits the screen (issue 18, item 7)", async ({ page, consoleErrors }) => {
  const { email } = await registerAndSignIn(page, { name: "Phone Owner" });
  const token = await idToken(email);
  const [{ id: userId }] = await sql(`SELECT id FROM "User" WHERE email = $1`, [email]);
  await uploadModel({ token, userId, name: "Phone Owner" }, { name: "Phone layout check" });
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto("/dashboard");
    const models = page.getByTestId("my-items");
    await expect(models).toContainText("Phone layout check");
    const quotas = page.locator(".dashboard-side");
    await expect(quotas).toBeVisible();
    const modelsBox = await boxOf(models);
    const quotasBox = await boxOf(quotas);
    if (size.width < 900) expect(modelsBox.y, "models above the quotas on a phone").toBeLessThan(quotasBox.y);
    else expect(quotasBox.x, "quotas beside the models on a desktop").toBeGreaterThan(modelsBox.x + modelsBox.width - 1);
    await shoot(page, `dashboard-${size.width}`);

    await page.goto("/settings");
    await expect(page.getByLabel(/^Avatar/)).toBeVisible();
    const overflow = await sidewaysOverflow(page);
    expect(overflow.wide, `elements past the ${size.width}px viewport`).toEqual([]);
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.clientWidth);
    await shoot(page, `settings-${size.width}`);
  }
  expect(consoleErrors).toEqual([]);
});
