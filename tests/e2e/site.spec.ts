import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "@playwright/test";
import { PNG } from "pngjs";
import { expect, registerAndSignIn, test } from "./fixtures";
import { BASE_URL, createCreator, disconnect, grantAdmin, notifyUser, replaceAnnouncements, uploadModel, viewItem, type Creator } from "./site-seed";

// The public site (issue 3): every SPEC §2 route and its layout, the chrome, announcements, explore,
// visibility rules, the signed-in pages, and an axe check of every page.

const RUN = randomBytes(3).toString("hex");
let creator: Creator;
const ids = { relic: [] as string[], unlisted: "", private: "" };

test.beforeAll(async () => {
  test.setTimeout(240_000);
  creator = await createCreator(`Ada ${RUN}`);
  // 25 public models (one more than Explore's page), two of them in Vehicles, three with the most views.
  for (let n = 1; n <= 25; n++) {
    const label = String(n).padStart(2, "0");
    ids.relic.push(await uploadModel(creator, { name: `Relic ${RUN} ${label}`, categorySlug: n === 3 || n === 7 ? "vehicles" : undefined }));
  }
  await viewItem(ids.relic[4], 6); // Relic 05
  await viewItem(ids.relic[11], 5); // Relic 12
  await viewItem(ids.relic[19], 4); // Relic 20 (more than the route tours below give Relic 02)
  ids.unlisted = await uploadModel(creator, { name: `Hidden ${RUN} unlisted`, visibility: "unlisted" });
  ids.private = await uploadModel(creator, { name: `Hidden ${RUN} private`, visibility: "private" });
});

test.afterAll(async () => {
  await replaceAnnouncements([]);
  await disconnect();
});

/** Waits for the first sign-in state (the boot spinner goes away) so the page is fully mounted. */
async function settle(page: Page) {
  await expect(page.getByTestId("boot-spinner")).toHaveCount(0);
}

async function expectNoSeriousAxeViolations(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => `${n.target.join(" ")} — ${n.failureSummary ?? ""}`).join("; ")}`);
  expect(serious, `axe on ${where}`).toEqual([]);
}

async function expectLayout(page: Page, layout: boolean, where: string) {
  await expect(page.locator("header.site-header"), `header on ${where}`).toHaveCount(layout ? 1 : 0);
  await expect(page.locator("footer.site-footer"), `footer on ${where}`).toHaveCount(layout ? 1 : 0);
}

function routes() {
  const item = ids.relic[1];
  return {
    withLayout: ["/", "/auth", "/contact", "/eula", `/item/${item}`, "/pricing", "/privacy-policy", "/sorry-to-see-you-go", "/topup", "/tutorial", `/u/${creator.userId}`],
    noLayout: [
      "/auth/connect/shopify",
      "/builder",
      `/embed/${item}`,
      "/riverchain",
      "/shopify/dashboard",
      `/viewer/${item}`,
    ],
    signedIn: ["/dashboard", "/dev", "/settings", `/item/${item}/edit`, `/builder/${item}`, "/builder/import"],
  };
}

test("signed out: every SPEC route with its layout rule, sign-in guards, and no serious axe violations", async ({ page, consoleErrors }) => {
  test.setTimeout(300_000);
  const { withLayout, noLayout, signedIn } = routes();
  for (const path of withLayout) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await settle(page);
    await expectLayout(page, true, path);
    await expectNoSeriousAxeViolations(page, path);
  }
  for (const path of noLayout) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await settle(page);
    await expectLayout(page, false, path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expectNoSeriousAxeViolations(page, path);
  }
  // Pages that need an account send a visitor to /auth with the way back.
  for (const path of signedIn) {
    await page.goto(path);
    await expect(page).toHaveURL(`/auth?redirect=${encodeURIComponent(path)}`);
  }
  // Unknown routes go to /.
  await page.goto(`/no-such-page-${RUN}`);
  await expect(page).toHaveURL("/");
  expect(consoleErrors).toEqual([]);
});

test("legacy paths, with and without a trailing slash, land on their static pages", async ({ page }) => {
  const legacy: Array<[string, string, string]> = [
    ["/CUHK/metaverse", "/legacy/cuhk-metaverse.html", "CUHK Metaverse"],
    ["/STW/Builder", "/legacy/stw-builder.html", "STW Builder"],
    ["/STW/HKEEIA", "/legacy/stw-hkeeia.html", "STW × HKEEIA"],
    ["/dgs", "/legacy/dgs.html", "DGS demo"],
    ["/dgs2", "/legacy/dgs2.html", "DGS demo 2"],
    ["/main", "/legacy/main.html", "Previous home page"],
  ];
  for (const [path, target, title] of legacy) {
    for (const variant of [path, `${path}/`]) {
      const response = await page.goto(variant);
      expect(response?.status(), variant).toBe(200);
      await expect(page, variant).toHaveURL(target);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    }
  }
  await expectNoSeriousAxeViolations(page, "a legacy page");
});

test("the header menu collapses at 1279px, the mobile menu toggles and closes on a breakpoint change", async ({ page, consoleErrors }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/pricing");
  await settle(page);
  const desktop = page.getByTestId("desktop-menu");
  const toggle = page.getByTestId("mobile-menu-toggle");
  await expect(desktop).toBeVisible();
  await expect(toggle).toBeHidden();
  await expect(page.getByTestId("login-link")).toHaveCSS("color", "rgb(255, 255, 255)");
  for (const label of ["Explore", "My Dashboard", "Pricing", "Tutorial"]) await expect(desktop.getByRole("link", { name: label })).toBeVisible();
  // More ▸ opens Contact Us, the Shopify App listing (new tab) and the website.
  await desktop.getByRole("button", { name: "More" }).click();
  await expect(desktop.getByRole("link", { name: "Contact Us" })).toHaveAttribute("href", "/contact");
  await expect(desktop.getByRole("link", { name: /Shopify App/ })).toHaveAttribute("target", "_blank");
  await expect(desktop.getByRole("link", { name: "Website" })).toBeVisible();
  await desktop.getByRole("link", { name: "Contact Us" }).click();
  await expect(page).toHaveURL("/contact");
  await expect(page.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("target", "_blank");
  await expect(page.getByRole("contentinfo")).toContainText("© 2025");
  // The footer leads to the privacy policy too (issue 35 item 8).
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL("/privacy-policy");
  await expect(page.getByRole("button", { name: "Notifications" })).toBeVisible();

  await page.setViewportSize({ width: 1279, height: 800 });
  await expect(desktop).toBeHidden();
  await expect(toggle).toBeVisible();
  await toggle.click();
  const mobile = page.getByTestId("mobile-menu");
  await expect(mobile).toBeVisible();
  await expect(mobile.getByRole("link", { name: "Tutorial" })).toBeVisible();
  await toggle.click();
  await expect(mobile).toHaveCount(0);
  await toggle.click();
  await expect(mobile).toBeVisible();
  // Crossing the breakpoint closes the mobile menu; it stays closed when coming back.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(mobile).toHaveCount(0);
  await expect(desktop).toBeVisible();
  await page.setViewportSize({ width: 1279, height: 800 });
  await expect(toggle).toBeVisible();
  await expect(mobile).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("Login's redirect is the current full path, or the existing redirect value on /auth", async ({ page, consoleErrors }) => {
  await page.goto(`/u/${creator.userId}?tab=models`);
  await settle(page);
  const login = page.getByTestId("login-link");
  await expect(login).toHaveAttribute("href", `/auth?redirect=${encodeURIComponent(`/u/${creator.userId}?tab=models`)}`);
  await page.goto("/auth?redirect=%2Fsettings");
  await settle(page);
  await expect(login).toHaveAttribute("href", "/auth?redirect=%2Fsettings");
  await page.goto("/auth");
  await settle(page);
  await expect(login).toHaveAttribute("href", "/auth");
  expect(consoleErrors).toEqual([]);
});

test("announcements: order, colours, sanitised HTML, closing, staying closed, reappearing after /", async ({ page, consoleErrors }) => {
  const [second, first, fixed] = await replaceAnnouncements([
    { content: "<strong>Second</strong> banner", order: 2, background_color: "#fef3c7", text_color: "#78350f", is_closable: true },
    {
      content: `First banner <a href="javascript:window.__pwned=1">bad link</a><img src="x" onerror="window.__pwned=2"><script>window.__pwned=3</script> <a href="https://example.com/ok" onclick="window.__pwned=4">good link</a>`,
      order: 1,
      is_closable: true,
    },
    { content: "Maintenance tonight", order: 3, background_color: "rgb(219, 234, 254)", text_color: "#1e3a8a", is_closable: false },
    { content: "Switched off", order: 0, is_active: false },
  ]);
  await page.goto("/pricing");
  await settle(page);
  const banners = page.getByTestId("announcement");
  await expect(banners).toHaveText(["First banner bad link good link", "Second banner", "Maintenance tonight"]);
  const bar = page.getByTestId("announcement-bar");
  expect(await bar.evaluate((el) => el.compareDocumentPosition(document.querySelector("header.site-header")!) & Node.DOCUMENT_POSITION_FOLLOWING)).toBeTruthy();

  // Colours from the record, SPEC's defaults otherwise.
  const colours = async (id: string) =>
    page.locator(`[data-announcement-id="${id}"]`).evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
  expect(await colours(second.id)).toEqual(["rgb(254, 243, 199)", "rgb(120, 53, 15)"]);
  expect(await colours(first.id)).toEqual(["rgba(255, 255, 255, 0.1)", "rgb(75, 85, 99)"]);
  expect(await colours(fixed.id)).toEqual(["rgb(219, 234, 254)", "rgb(30, 58, 138)"]);

  // Script, event handlers and javascript: links are gone; the safe link stays.
  const firstBanner = page.locator(`[data-announcement-id="${first.id}"]`);
  await expect(firstBanner.locator("script, img, [onerror], [onclick]")).toHaveCount(0);
  expect(await firstBanner.getByText("bad link").getAttribute("href")).toBeNull();
  await expect(firstBanner.getByRole("link", { name: "good link" })).toHaveAttribute("href", "https://example.com/ok");
  await firstBanner.getByText("bad link").click();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expectNoSeriousAxeViolations(page, "/pricing with announcements");

  // Closable ones have a 'Close announcement' button; the fixed one has none.
  await expect(page.locator(`[data-announcement-id="${fixed.id}"]`).getByRole("button", { name: "Close announcement" })).toHaveCount(0);
  await page.locator(`[data-announcement-id="${second.id}"]`).getByRole("button", { name: "Close announcement" }).click();
  await expect(banners).toHaveText(["First banner bad link good link", "Maintenance tonight"]);
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem("closedAnnouncements") ?? "[]"))).toEqual([second.id]);
  await page.reload();
  await settle(page);
  await expect(banners).toHaveText(["First banner bad link good link", "Maintenance tonight"]);

  // Visiting / clears the closed list: the closed banner comes back.
  await page.getByTestId("desktop-menu").getByRole("link", { name: "Explore" }).click();
  await expect(page).toHaveURL("/");
  await expect(banners).toHaveText(["First banner bad link good link", "Second banner", "Maintenance tonight"]);
  expect(await page.evaluate(() => localStorage.getItem("closedAnnouncements"))).toBeNull();

  // Closing every closable one leaves the non-closable one, after a reload too.
  await page.goto("/tutorial");
  await settle(page);
  for (const id of [first.id, second.id]) await page.locator(`[data-announcement-id="${id}"]`).getByRole("button", { name: "Close announcement" }).click();
  await page.reload();
  await settle(page);
  await expect(banners).toHaveText(["Maintenance tonight"]);
  expect(consoleErrors).toEqual([]);
});

test("a failed announcements load hides the bar", async ({ page }) => {
  // No consoleErrors fixture here: the browser itself logs the refused request.
  await page.route("**/v1/announcements", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ status: 503, error: "internal_error", message: "down" }) }),
  );
  await page.goto("/tutorial");
  await settle(page);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("announcement-bar")).toHaveCount(0);
  await replaceAnnouncements([]);
});

test("the front door: signed out, what Scanroom does, the most viewed models and one call to action; signed in, Explore; Builder in the menu, Admin for admins", async ({ page, consoleErrors }) => {
  await page.goto("/");
  await settle(page);
  const door = page.getByTestId("front-door");
  await expect(door.getByRole("heading", { level: 1 })).toHaveText("Turn a video or photos into a 3D model");
  await expect(door.locator(".front-door-steps strong")).toHaveText(["Capture", "Get a 3D model", "Embed and sell"]);
  // The front door's models are the API's featured ones (if any, admin.spec features some), then its most viewed.
  type Listed = { id: string; name: string; is_featured: boolean };
  const list = async (sort: string) => (await (await fetch(`${BASE_URL}/v1/items?sort=${sort}&limit=8`)).json()).data.items as Listed[];
  const shown = [...(await list("featured")).filter((item) => item.is_featured), ...(await list("most_viewed")).filter((item) => !item.is_featured)].slice(0, 4);
  expect(shown.length).toBe(4);
  await expect(door.getByTestId("featured-model")).toHaveText(shown.map((item) => item.name));
  await expect(door.getByTestId("featured-model").first().getByRole("link")).toHaveAttribute("href", `/item/${shown[0].id}`);
  // One call to action; Explore follows below the front door.
  await expect(door.getByRole("link")).toHaveCount(5);
  await expect(page.getByRole("heading", { level: 2, name: "Explore" })).toBeVisible();
  await expect(page.getByTestId("desktop-menu").getByRole("link", { name: "Builder" })).toHaveAttribute("href", "/builder");
  await expect(page.getByTestId("desktop-menu").getByRole("link", { name: "Admin" })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, "/ (front door)");
  await door.getByTestId("front-door-cta").click();
  await expect(page).toHaveURL("/auth?redirect=%2Fdashboard");

  // Signed in: Explore alone.
  const { email } = await registerAndSignIn(page, { name: `Door ${RUN}` });
  await page.goto("/");
  await settle(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Explore");
  await expect(page.getByTestId("front-door")).toHaveCount(0);
  await expect(page.getByTestId("desktop-menu").getByRole("link", { name: "Admin" })).toHaveCount(0);
  // An admin sees the way to the admin area.
  await grantAdmin(email);
  await page.reload();
  await settle(page);
  await page.getByTestId("desktop-menu").getByRole("link", { name: "Admin" }).click();
  await expect(page).toHaveURL(/\/admin/);
  expect(consoleErrors).toEqual([]);
});

test("explore: search by name, category filter, sort, more pages, owner and views", async ({ page, consoleErrors }) => {
  await page.goto("/");
  await settle(page);
  await page.getByLabel("Search models").fill(`Relic ${RUN}`);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(`/?q=Relic+${RUN}`);
  const cards = page.getByTestId("item-card");
  const titles = page.getByTestId("explore-grid").getByRole("heading", { level: 3 });
  await expect(cards).toHaveCount(24);
  await expect(titles.first()).toHaveText(`Relic ${RUN} 25`);
  // The next page arrives as the end of the grid scrolls into view (cursor pagination).
  await page.getByTestId("load-more").scrollIntoViewIfNeeded();
  await expect(cards).toHaveCount(25);
  await expect(titles.last()).toHaveText(`Relic ${RUN} 01`);
  await expect(page.getByTestId("load-more")).toHaveCount(0);
  const card = page.locator(`[data-item-id="${ids.relic[4]}"]`);
  await expect(card.getByRole("link", { name: `Ada ${RUN}` })).toHaveAttribute("href", `/u/${creator.userId}`);
  await expect(card.getByTestId("item-views")).toHaveText("6 views");

  await page.getByLabel("Sort by").selectOption("most_viewed");
  await expect(page).toHaveURL(`/?q=Relic+${RUN}&sort=most_viewed`);
  await expect(titles.nth(0)).toHaveText(`Relic ${RUN} 05`);
  await expect(titles.nth(1)).toHaveText(`Relic ${RUN} 12`);
  await expect(titles.nth(2)).toHaveText(`Relic ${RUN} 20`);

  await expect(page.getByLabel("Category").locator("option", { hasText: "Vehicles" })).toHaveCount(1);
  await page.getByLabel("Category").selectOption("vehicles");
  await page.getByLabel("Sort by").selectOption("newest");
  await expect(page).toHaveURL(`/?q=Relic+${RUN}&category=vehicles&sort=newest`);
  await expect(titles).toHaveText([`Relic ${RUN} 07`, `Relic ${RUN} 03`]);

  // Unlisted and private models are never listed.
  await page.getByLabel("Category").selectOption("");
  await page.getByLabel("Search models").fill(`Hidden ${RUN}`);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No public models match these filters.")).toBeVisible();
  await expect(cards).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("explore: words typed before the page is ready are searched for; a link to Explore empties the box", async ({ page, consoleErrors }) => {
  // Hold the page's scripts until the visitor has typed, as a slow phone would: the box must keep the words
  // through hydration and the sign-in state that follows it.
  let releaseScripts!: () => void;
  const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
  await page.route(
    (url) => url.pathname.startsWith("/assets/") && url.pathname.endsWith(".js"),
    async (route) => {
      await scriptsHeld;
      await route.continue();
    },
  );
  await page.goto("/", { waitUntil: "commit" });
  await page.getByLabel("Search models").fill(`Relic ${RUN}`);
  releaseScripts();
  await settle(page);
  await expect(page.getByLabel("Search models")).toHaveValue(`Relic ${RUN}`);
  await page.getByLabel("Search models").press("Enter");
  await expect(page).toHaveURL(`/?q=Relic+${RUN}`);
  await expect(page.getByTestId("explore-grid").getByRole("heading", { level: 3 }).first()).toHaveText(`Relic ${RUN} 25`);

  // A link to Explore without a search empties the box.
  await page.getByRole("link", { name: "Scanroom home" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByLabel("Search models")).toHaveValue("");
  expect(consoleErrors).toEqual([]);
});

test("visibility: unlisted by link only, private is 404 to others, embeds follow the same rule", async ({ page, request, consoleErrors }) => {
  expect((await page.goto(`/item/${ids.unlisted}`))?.status()).toBe(200);
  await settle(page);
  await expect(page.getByRole("heading", { level: 1, name: `Hidden ${RUN} unlisted` })).toBeVisible();
  await expect(page.getByTestId("share-link")).toHaveValue(`http://localhost:${process.env.E2E_PORT ?? 3100}/item/${ids.unlisted}`);
  await expect(page.getByTestId("embed-code")).toHaveValue(new RegExp(`<iframe src="http://localhost:\\d+/embed/${ids.unlisted}"`));
  await expect(page.getByRole("heading", { name: "Manage" })).toHaveCount(0);

  for (const path of [`/item/${ids.private}`, `/viewer/${ids.private}`, `/embed/${ids.private}`]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
  }
  const privatePage = await page.goto(`/item/${ids.private}`);
  expect(privatePage?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();

  // The embed is framable by any site and carries the watermark; the site itself is not framable.
  const embed = await request.get(`/embed/${ids.unlisted}`);
  expect(embed.status()).toBe(200);
  expect(embed.headers()["content-security-policy"]).toMatch(/(^|; )frame-ancestors \*(;|$)/);
  expect((await request.get("/pricing")).headers()["content-security-policy"]).toContain("frame-ancestors 'self'");
  await page.goto(`/embed/${ids.unlisted}`);
  await expect(page.getByTestId("embed-watermark")).toHaveText(/Made with Scanroom/);

  // The profile lists public models only.
  await page.goto(`/u/${creator.userId}`);
  await settle(page);
  await expect(page.getByRole("heading", { level: 1, name: `Ada ${RUN}` })).toBeVisible();
  await expect(page.getByText("25 public models")).toBeVisible();
  await expect(page.getByTestId("profile-items").getByText(`Hidden ${RUN}`)).toHaveCount(0);
  // The 404 answers above are expected; the browser logs each one.
  const unexpected = consoleErrors.filter((e) => !e.includes("404"));
  consoleErrors.splice(0, consoleErrors.length, ...unexpected);
  expect(consoleErrors).toEqual([]);
});

test.describe("signed in", () => {
  // One registered account for the whole journey (lean CI): these steps run in order.
  test.describe.configure({ mode: "serial" });
  let context: BrowserContext;
  let page: Page;
  let email = "";
  let token = "";
  let userId = "";
  let mine = "";
  const errors: string[] = [];

  test.beforeAll(async ({ browser }) => {
    context = await browser.newContext();
    page = await context.newPage();
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
    page.on("response", (r) => r.status() >= 400 && errors.push(`(response ${r.status()} ${r.request().method()} ${r.url()})`));
    ({ email } = await registerAndSignIn(page, { name: `Tester ${RUN}` }));
  });

  test.afterAll(async () => {
    await context.close();
  });

  test.afterEach(() => {
    const found = errors.splice(0);
    // Responses are listed only to explain a console error.
    expect(found.some((e) => !e.startsWith("(response")) ? found : [], "console errors on the page").toEqual([]);
  });

  test("the developer page gives the ID token and API base URL; the API accepts that token", async () => {
    await page.goto("/dev");
    await settle(page);
    await expect(page.getByTestId("api-base-url")).toHaveValue(`http://localhost:${process.env.E2E_PORT ?? 3100}/v1`);
    await expect(page.getByTestId("environment-info")).toContainText("local");
    await page.getByRole("button", { name: "Show my ID token" }).click();
    token = await page.getByTestId("id-token").inputValue();
    const me = await page.request.get("/v1/user", { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(200);
    userId = (await me.json()).data.user.id;
    mine = await uploadModel({ token, userId, name: "me" }, { name: `Mine ${RUN}`, visibility: "private" });
  });

  test("every SPEC route signed in keeps its layout rule and passes axe", async () => {
    test.setTimeout(300_000);
    const { withLayout, noLayout, signedIn } = routes();
    // Pages already checked by axe signed out are checked again only where signing in changes them.
    const axeAgain = new Set([...signedIn, "/", "/builder", `/item/${mine}`, `/item/${mine}/edit`, `/builder/${mine}`, "/auth/connect/shopify"]);
    for (const path of [...withLayout.filter((p) => p !== "/auth"), ...signedIn.slice(0, 3), `/item/${mine}`]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await settle(page);
      await expectLayout(page, true, path);
      await expect(page.getByTestId("settings-avatar")).toBeVisible();
      if (axeAgain.has(path)) await expectNoSeriousAxeViolations(page, `${path} (signed in)`);
    }
    for (const path of [...noLayout, `/item/${mine}/edit`, `/builder/${mine}`, "/builder/import"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await settle(page);
      await expectLayout(page, false, path);
      if (axeAgain.has(path)) await expectNoSeriousAxeViolations(page, `${path} (signed in)`);
    }
    // Someone else's item cannot be edited, and someone else's private item cannot be seen.
    expect((await page.goto(`/item/${ids.relic[1]}/edit`))?.status()).toBe(404);
    expect((await page.goto(`/item/${ids.private}`))?.status()).toBe(404);
    errors.splice(0).forEach((e) => expect(e).toContain("404"));
    // /auth sends a signed-in user on to the redirect.
    await page.goto("/auth?redirect=%2Ftopup");
    await expect(page).toHaveURL("/topup");
  });

  test("the model page: owner tools, views not counted for the owner, share and embed only when not private", async () => {
    await page.goto(`/item/${mine}`);
    await settle(page);
    await expect(page.getByRole("heading", { level: 1, name: `Mine ${RUN}` })).toBeVisible();
    await expect(page.getByTestId("item-view-count")).toHaveText("0 views");
    await expect(page.getByText("This model is private.")).toBeVisible();
    await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 90_000 });

    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("Model name").fill(`Mine ${RUN} renamed`);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Mine ${RUN} renamed` })).toBeVisible();

    await page.getByLabel("Visibility").selectOption("unlisted");
    await expect(page.getByTestId("visibility-help")).toHaveText("Anyone with the link can open it; it is never listed.");
    await expect(page.getByTestId("share-link")).toHaveValue(new RegExp(`/item/${mine}$`));
    await page.reload();
    await settle(page);
    await expect(page.getByTestId("item-view-count")).toHaveText("0 views");
    await expect(page.getByLabel("Visibility")).toHaveValue("unlisted");
    // A visitor's view counts: written within a second (views are added once a second, decision 045).
    await viewItem(mine, 1);
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("item-view-count")).toHaveText("1 view", { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
  });

  test("edit page: details, category and a thumbnail that Explore shows", async () => {
    await page.goto(`/item/${mine}`);
    await page.getByRole("link", { name: "Edit" }).click();
    await expect(page).toHaveURL(`/item/${mine}/edit`);
    await settle(page);
    await expectLayout(page, false, "edit");
    await page.getByLabel("Description").fill("A test model.");
    await page.getByLabel("Category").selectOption({ label: "Food" });
    await page.getByLabel("Visibility").selectOption("public");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Your changes were saved.")).toBeVisible();
    const png = new PNG({ width: 64, height: 48 });
    png.data.fill(200);
    await page.getByLabel(/Upload an image/).setInputFiles({ name: "thumb.png", mimeType: "image/png", buffer: PNG.sync.write(png) });
    await expect(page.getByText("The thumbnail was updated.")).toBeVisible();
    const thumb = page.getByRole("img", { name: `Thumbnail of Mine ${RUN} renamed` });
    // The page shows the new image once it has reloaded the item (the automatic thumbnail may be on show before).
    await expect(thumb).toHaveJSProperty("naturalWidth", 64);
    // Free plan: the watermark stays on.
    await expect(page.getByLabel("Show the Scanroom watermark in embeds")).toBeDisabled();

    await page.goto(`/?q=Mine+${RUN}&category=food`);
    await settle(page);
    const card = page.locator(`[data-item-id="${mine}"]`);
    await expect(card.locator("img")).toHaveJSProperty("naturalWidth", 64);
  });

  test("dashboard: statuses, actions, quotas, ?refresh=true, and the quota error toast", async () => {
    const created = await page.request.post("/v1/item", {
      headers: { Authorization: `Bearer ${token}` },
      data: { model_type: "glb", upload_type: "model", name: `Pending ${RUN}` },
    });
    const pending = (await created.json()).data.item_id as string;
    await page.goto("/dashboard?refresh=true");
    await settle(page);
    await expect(page).toHaveURL("/dashboard");
    await expect(page.locator(`[data-item-id="${mine}"]`).getByTestId("item-status")).toHaveAttribute("data-status", "ready");
    await expect(page.locator(`[data-item-id="${pending}"]`).getByTestId("item-status")).toContainText("Uploading");
    await expect(page.locator(`[data-item-id="${mine}"]`).getByRole("link", { name: "Edit" })).toHaveAttribute("href", `/item/${mine}/edit`);
    // A card's actions, links and buttons alike, sit in one row drawn one way, on a desktop and on a phone (issue 35 item 8).
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const actions = page.locator(`[data-item-id="${mine}"] .item-card-actions`).locator("a, button");
      await expect(actions).toHaveCount(4);
      const drawn = await actions.evaluateAll((elements) =>
        elements.map((element) => {
          const box = element.getBoundingClientRect();
          const style = getComputedStyle(element);
          return { top: Math.round(box.top), look: `${Math.round(box.height)} ${style.fontSize} ${style.fontWeight} ${style.textDecorationLine} ${style.backgroundColor}` };
        }),
      );
      expect(new Set(drawn.map((action) => action.top)).size, `one row at ${width} px: ${JSON.stringify(drawn)}`).toBe(1);
      expect(new Set(drawn.map((action) => action.look)).size, `one look at ${width} px: ${JSON.stringify(drawn)}`).toBe(1);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await expect(page.getByTestId("quota-scans").locator("dd")).toHaveText(/^(\d+\/\d+( \(\+\d+\))?|Unlimited)$/);
    await expect(page.getByTestId("quota-annotations").locator("dd")).toHaveText(/^\d+ per model$/);
    await expect(page.getByTestId("quota-links").locator("dd")).toHaveText(/^\d+\/\d+$/);
    await expect(page.getByTestId("quota-embeds").locator("dd")).toHaveText(/^\d+\/\d+$/);

    await page.locator(`[data-item-id="${pending}"]`).getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete model" }).getByRole("button", { name: "Delete" }).click();
    await expect(page.locator(`[data-item-id="${pending}"]`)).toHaveCount(0);

    // SPEC §8: a quota failure is an 'Error!' toast. (Another page: the browser logs the refused request.)
    const other = await context.newPage();
    await other.route("**/v1/user/quotas", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ status: 500, error: "internal_error", message: "x" }) }),
    );
    await other.goto("/dashboard");
    await expect(other.locator(".p-toast")).toContainText("Error!");
    await expect(other.locator(".p-toast")).toContainText("Could not fetch user scan quotas.");
    await other.close();
  });

  test("notifications: unread count, the list, marked read when opened, persisted", async () => {
    await notifyUser({ userId, kind: "scan_finished", title: `Scan finished: Mine ${RUN}`, link: `/item/${mine}` });
    await notifyUser({ userId, kind: "quota_warning", title: "1 scan left this month" });
    await page.goto("/pricing");
    await settle(page);
    const bell = page.getByTestId("notifications-bell");
    await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
    await expect(page.getByTestId("notifications-unread")).toHaveText("2");
    await bell.click();
    const panel = page.getByTestId("notifications-panel");
    await expect(panel.getByTestId("notification")).toHaveText([/1 scan left this month/, new RegExp(`Scan finished: Mine ${RUN}`)]);
    await expect(page.getByTestId("notifications-unread")).toHaveCount(0);
    await expectNoSeriousAxeViolations(page, "the notifications list");
    await page.reload();
    await settle(page);
    await expect(bell).toHaveAccessibleName("Notifications");
    await bell.click();
    await panel.getByRole("link", { name: new RegExp(`Scan finished`) }).click();
    await expect(page).toHaveURL(`/item/${mine}`);
  });

  test("settings: display name, avatar (2 MB limit), email state, plan", async () => {
    await page.goto("/settings");
    await settle(page);
    await expect(page.getByTestId("email-verification")).toHaveText("Verified");
    await expect(page.getByTestId("current-plan")).toContainText("Free");
    await page.getByLabel("Display name").fill(`Zed ${RUN}`);
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(page.getByText("Your display name was updated.")).toBeVisible();
    await expect(page.getByTestId("settings-avatar")).toHaveText("Z");

    await page.getByLabel(/^Avatar/).setInputFiles({ name: "big.png", mimeType: "image/png", buffer: Buffer.alloc(2 * 1024 * 1024 + 1) });
    await expect(page.getByText("The image is larger than 2 MB.")).toBeVisible();
    const png = new PNG({ width: 40, height: 40 });
    png.data.fill(120);
    await page.getByLabel(/^Avatar/).setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG.sync.write(png) });
    await expect(page.getByText("Your avatar was updated.")).toBeVisible();
    const avatar = page.getByTestId("settings-avatar").locator("img");
    await expect(avatar).toHaveAttribute("src", new RegExp(`^/avatars/${userId}\\?v=\\d+$`));
    await expect(avatar).toHaveJSProperty("naturalWidth", 40);
    await page.goto(`/u/${userId}`);
    await expect(page.getByRole("heading", { level: 1, name: `Zed ${RUN}` })).toBeVisible();
  });

  test("Logout shows 'Logout success.' and goes to /", async () => {
    await page.goto("/tutorial");
    await settle(page);
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page.locator(".p-toast")).toContainText("Logout success.");
    await expect(page).toHaveURL("/");
    await expect(page.getByTestId("login-link")).toBeVisible();
  });

  test("deleting the account removes models and sign-in, then says goodbye", async () => {
    await page.goto("/auth?redirect=%2Fsettings");
    await page.locator("#signin-email").fill(email);
    await page.locator("#signin-password").fill("a-strong-password-123");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL("/settings");
    await settle(page);
    await page.getByRole("button", { name: "Delete my account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await expect(dialog.getByRole("button", { name: "Delete account for good" })).toBeDisabled();
    await dialog.getByLabel("Confirmation").fill("DELETE");
    await dialog.getByRole("button", { name: "Delete account for good" }).click();
    await expect(page).toHaveURL("/sorry-to-see-you-go");
    await expect(page.getByRole("heading", { level: 1, name: "Sorry to see you go" })).toBeVisible();
    await expect(page.getByTestId("login-link")).toBeVisible();
    expect((await page.request.get(`/v1/item/${mine}`)).status()).toBe(404);
    expect((await page.request.get(`/avatars/${userId}`)).status()).toBe(404);
    // The Firebase account is gone too.
    await page.goto("/auth");
    await page.locator("#signin-email").fill(email);
    await page.locator("#signin-password").fill("a-strong-password-123");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("The email or password is not right.")).toBeVisible();
    // The emulator's refusal (400) is the expected outcome; the browser logs it.
    const unexpected = errors.filter((e) => !e.includes("400") && !e.includes("accounts:signInWithPassword"));
    errors.splice(0, errors.length, ...unexpected);
  });
});
