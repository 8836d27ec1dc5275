import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { expect, registerAndSignIn, test } from "./fixtures";
import { createCreator, disconnect, grantAdmin, replaceAnnouncements, uploadModel } from "./site-seed";

// The admin area (issue 9): an admin creates three announcements in the editor, reorders them by
// keyboard and by dragging, a visitor sees them in that order with their colours and closes the
// closable one for good; the admin deactivates one and it disappears. Then the developer tools.

test.beforeEach(async () => {
  await replaceAnnouncements([]);
});

test.afterAll(async () => {
  await replaceAnnouncements([]);
  await disconnect();
});

async function settle(page: Page) {
  await expect(page.getByTestId("boot-spinner")).toHaveCount(0);
}

function adminRows(page: Page): Locator {
  return page.getByRole("list", { name: "Announcements, in the order visitors see them" }).getByRole("listitem");
}

/** Types into the shared rich-text editor; parts marked bold are typed with Bold switched on. */
async function typeContent(dialog: Locator, parts: Array<[text: string, bold?: boolean]>) {
  await dialog.getByRole("textbox", { name: "Content" }).click();
  for (const [text, bold] of parts) {
    if (bold) await dialog.getByRole("button", { name: "Bold" }).click();
    await dialog.page().keyboard.type(text);
    if (bold) await dialog.getByRole("button", { name: "Bold" }).click();
  }
}

async function createAnnouncement(
  page: Page,
  { content, background, text, closable = true }: { content: Array<[string, boolean?]>; background?: string; text?: string; closable?: boolean },
) {
  await page.getByRole("button", { name: "New announcement" }).click();
  const dialog = page.getByRole("dialog", { name: "New announcement" });
  await typeContent(dialog, content);
  if (background) await dialog.getByLabel("Background colour", { exact: true }).fill(background);
  if (text) await dialog.getByLabel("Text colour", { exact: true }).fill(text);
  if (!closable) await dialog.getByLabel("Closable (visitors can close it)").uncheck();
  const saved = page.waitForResponse((r) => r.url().endsWith("/v1/admin/announcements") && r.request().method() === "POST");
  await dialog.getByRole("button", { name: "Create announcement" }).click();
  expect((await saved).status()).toBe(200);
  await expect(dialog).toHaveCount(0);
}

async function expectNoSeriousAxeViolations(page: Page, where: string) {
  // Toasts are the site's (toast-provider.tsx, the theme's success colours); checked where they are built.
  const results = await new AxeBuilder({ page }).exclude(".p-toast").analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`);
  expect(serious, `axe on ${where}`).toEqual([]);
}

const colours = (banner: Locator) => banner.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);

test("admins run announcements: create, reorder by keyboard and drag, visitors see them in order and close one, deactivate hides one", async ({
  page,
  browser,
  consoleErrors,
}) => {
  test.setTimeout(240_000);
  const { email } = await registerAndSignIn(page, { name: "E2E Admin" });
  // Not an admin yet: the admin area looks like any unknown page.
  expect((await page.request.get("/admin", { maxRedirects: 0 })).status()).toBe(404);
  await grantAdmin(email);
  await page.goto("/admin/announcements");
  await settle(page);
  await expect(page.getByRole("heading", { level: 1, name: "Announcements" })).toBeVisible();

  // The editor's live preview uses SPEC's defaults until colours are chosen, and shows only safe HTML.
  await page.getByRole("button", { name: "New announcement" }).click();
  const dialog = page.getByRole("dialog", { name: "New announcement" });
  await typeContent(dialog, [["Alpha", true], [" sale"]]);
  const preview = dialog.getByTestId("announcement-preview");
  await expect(preview).toHaveText("Alpha sale");
  await expect(preview.locator("b, strong")).toHaveText("Alpha");
  expect(await colours(preview)).toEqual(["rgba(255, 255, 255, 0.1)", "rgb(75, 85, 99)"]);
  await dialog.getByLabel("Background colour", { exact: true }).fill("#fef3c7");
  await dialog.getByLabel("Text colour", { exact: true }).fill("#78350f");
  expect(await colours(preview)).toEqual(["rgb(254, 243, 199)", "rgb(120, 53, 15)"]);
  await expectNoSeriousAxeViolations(page, "the announcement editor");
  // Markup that reaches the editor some other way (an extension, a script) is cleaned in the preview.
  await dialog.getByRole("textbox", { name: "Content" }).evaluate((el) => {
    el.innerHTML = '<a href="javascript:window.__pwned=1">bad link</a><script>window.__pwned=2</script> and text';
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await expect(preview).toHaveText("bad link and text");
  await expect(preview.locator("a")).not.toHaveAttribute("href", /.*/);
  await expect(preview.locator("script")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  await createAnnouncement(page, { content: [["Alpha", true], [" sale"]], background: "#fef3c7", text: "#78350f" });
  await createAnnouncement(page, { content: [["Bravo news"]], background: "rgb(219, 234, 254)", text: "#1e3a8a", closable: false });
  await createAnnouncement(page, { content: [["Charlie notice"]] });
  await expect(adminRows(page)).toHaveText([/Alpha\s+sale/, /Bravo news/, /Charlie notice/]);
  await expectNoSeriousAxeViolations(page, "/admin/announcements");

  // Keyboard: focus Charlie's handle, pick it up, two steps up, drop. Screen readers hear each step.
  const live = page.locator('[id^="DndLiveRegion"]');
  await page.getByRole("button", { name: "Reorder Charlie notice" }).focus();
  await page.keyboard.press("Space");
  await expect(live).toHaveText("Picked up Charlie notice, position 3 of 3.");
  // dnd-kit's keyboard sensor starts listening for arrow keys in a setTimeout(0) after pick-up; a
  // timer queued now runs after it, so the next key press is never lost.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  await page.keyboard.press("ArrowUp");
  await expect(live).toHaveText("Charlie notice is over position 2 of 3.");
  await page.keyboard.press("ArrowUp");
  await expect(live).toHaveText("Charlie notice is over position 1 of 3.");
  let reordered = page.waitForResponse((r) => r.url().endsWith("/v1/admin/announcements/reorder"));
  await page.keyboard.press("Space");
  expect((await reordered).status()).toBe(200);
  await expect(adminRows(page)).toHaveText([/Charlie notice/, /Alpha\s+sale/, /Bravo news/]);

  // Mouse: drag Bravo by its handle onto Alpha's place.
  const from = (await page.getByRole("button", { name: "Reorder Bravo news" }).boundingBox())!;
  const to = (await page.getByRole("button", { name: "Reorder Alpha sale" }).boundingBox())!;
  reordered = page.waitForResponse((r) => r.url().endsWith("/v1/admin/announcements/reorder"));
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 10, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 5, { steps: 15 });
  await page.mouse.up();
  expect((await reordered).status()).toBe(200);
  await expect(adminRows(page)).toHaveText([/Charlie notice/, /Bravo news/, /Alpha\s+sale/]);
  await page.reload();
  await settle(page);
  await expect(adminRows(page)).toHaveText([/Charlie notice/, /Bravo news/, /Alpha\s+sale/]);

  // A visitor (a fresh browser: no session, nothing closed yet) sees them in that order, in their colours.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto("/pricing");
  await settle(visitor);
  const banners = visitor.getByTestId("announcement");
  await expect(banners).toHaveText(["Charlie notice", "Bravo news", "Alpha sale"]);
  expect(await colours(banners.nth(0))).toEqual(["rgba(255, 255, 255, 0.1)", "rgb(75, 85, 99)"]);
  expect(await colours(banners.nth(1))).toEqual(["rgb(219, 234, 254)", "rgb(30, 58, 138)"]);
  expect(await colours(banners.nth(2))).toEqual(["rgb(254, 243, 199)", "rgb(120, 53, 15)"]);
  await expect(banners.nth(1).getByRole("button", { name: "Close announcement" })).toHaveCount(0);

  // The visitor closes the closable Charlie: it stays closed across reloads.
  await banners.nth(0).getByRole("button", { name: "Close announcement" }).click();
  await expect(banners).toHaveText(["Bravo news", "Alpha sale"]);
  await visitor.reload();
  await settle(visitor);
  await expect(banners).toHaveText(["Bravo news", "Alpha sale"]);

  // The admin deactivates Alpha: the visitor no longer sees it.
  const deactivated = page.waitForResponse((r) => r.url().includes("/v1/admin/announcements/") && r.request().method() === "PUT");
  await page.getByRole("button", { name: "Deactivate Alpha sale" }).click();
  expect((await deactivated).status()).toBe(200);
  await expect(adminRows(page).filter({ hasText: /Alpha\s+sale/ })).toContainText("Inactive");
  await visitor.reload();
  await settle(visitor);
  await expect(banners).toHaveText(["Bravo news"]);

  // Delete asks first; Cancel keeps the announcement, Delete removes it.
  await page.getByRole("button", { name: "Delete Bravo news" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete announcement" });
  await expect(confirm).toContainText('Delete "Bravo news"? This cannot be undone.');
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(adminRows(page)).toHaveCount(3);
  await page.getByRole("button", { name: "Delete Bravo news" }).click();
  await page.getByRole("dialog", { name: "Delete announcement" }).getByRole("button", { name: "Delete" }).click();
  await expect(adminRows(page)).toHaveText([/Charlie notice/, /Alpha\s+sale/]);
  await visitor.reload();
  await settle(visitor);
  await expect(visitor.getByTestId("announcement-bar")).toHaveCount(0);
  await visitorContext.close();
  expect(consoleErrors).toEqual([]);
});

test("developer tools show request ids, timings and raw page data; every admin page renders", async ({ page, consoleErrors }) => {
  test.setTimeout(180_000);
  const { email } = await registerAndSignIn(page, { name: "E2E Dev Admin" });
  await grantAdmin(email);
  const response = await page.goto("/admin/announcements");
  await settle(page);
  const requestId = response!.headers()["x-request-id"];
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  await expect(page.getByTestId("dev-tools")).toHaveCount(0);

  await page.getByRole("button", { name: "Dev mode: off" }).click();
  await page.getByTestId("dev-tools").getByRole("button", { name: "Dev tools" }).click();
  const requests = page.getByTestId("dev-requests");
  // The page itself, named by the same id the server sent, with the server's time.
  await expect(requests.getByRole("row").filter({ hasText: "/admin/announcements" }).filter({ hasText: requestId })).toContainText(/\d+(\.\d)? ms/);
  // API calls the page made are listed too (the announcement bar's).
  await expect(requests.getByRole("row").filter({ hasText: "/v1/announcements" }).first()).toBeVisible();

  await page.getByRole("tab", { name: "Page data" }).click();
  const data = page.getByTestId("dev-page-data");
  await expect(data.getByText("routes/admin.announcements")).toBeVisible();
  await expect(data).toContainText('"announcements": []');
  await page.getByRole("tab", { name: "Test components" }).click();
  await page.getByTestId("dev-test-components").getByRole("button", { name: "success" }).click();
  await expect(page.getByText("A success toast")).toBeVisible();

  // Every admin page renders for an admin without console errors or serious axe violations.
  for (const [path, heading] of [
    ["/admin", "Admin"],
    ["/admin/categories", "Categories"],
    ["/admin/users", "Users"],
    ["/admin/moderation", "Moderation"],
    ["/admin/audit", "Audit log"],
  ]) {
    await page.goto(path);
    await settle(page);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expectNoSeriousAxeViolations(page, path);
  }
  // Credits adjusted from a user's page land in their ledger with the reason.
  await page.goto(`/admin/users?q=${encodeURIComponent(email)}`);
  await page.getByRole("link", { name: email }).click();
  await expect(page.getByRole("heading", { level: 1, name: email })).toBeVisible();
  await settle(page);
  await page.getByLabel("Amount (negative removes)").fill("2");
  await page.getByLabel("Reason (recorded in the ledger)").fill("Goodwill for testing");
  await page.getByRole("button", { name: "Adjust credits" }).click();
  await expect(page.getByTestId("ledger-history").getByRole("row").filter({ hasText: "Goodwill for testing" })).toContainText("+2");
  await expectNoSeriousAxeViolations(page, "/admin/users/{id}");
  expect(consoleErrors).toEqual([]);
});

test("an admin features a model: signed-out visitors see it first on the front door and on Explore, marked Featured", async ({ page, consoleErrors }) => {
  test.setTimeout(120_000);
  const name = `Showpiece ${Date.now().toString(36)}`;
  const creator = await createCreator("E2E Curated Creator");
  const itemId = await uploadModel(creator, { name });
  const { email } = await registerAndSignIn(page, { name: "E2E Curator" });
  await grantAdmin(email);
  await page.goto("/admin/moderation");
  await settle(page);
  await page.getByRole("button", { name: `Feature ${name}` }).click();
  await expect(page.getByText(`"${name}" is featured: Explore and the front page show it first.`)).toBeVisible();
  await expect(page.getByRole("button", { name: `Unfeature ${name}` })).toBeVisible();

  const visitor = await page.context().browser()!.newPage();
  // Signed-out pages may come from the shared cache for up to 10 s: look again until then.
  await expect(async () => {
    await visitor.goto("/");
    await expect(visitor.getByTestId("featured-model").first()).toHaveText(name, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(visitor.getByLabel("Sort by")).toHaveValue("featured");
  const first = visitor.getByTestId("explore-grid").getByTestId("item-card").first();
  await expect(first).toHaveAttribute("data-item-id", itemId);
  await expect(first.getByTestId("featured-badge")).toHaveText("Featured");
  await expect(first.getByRole("heading", { level: 3 })).toHaveText(name);
  await visitor.close();

  await page.getByRole("button", { name: `Unfeature ${name}` }).click();
  await expect(page.getByText(`"${name}" is no longer featured.`)).toBeVisible();
  await page.goto("/admin/audit");
  await settle(page);
  await expect(page.getByText("item.feature", { exact: true }).first()).toBeVisible();
  expect(consoleErrors).toEqual([]);
});
