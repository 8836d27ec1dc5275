import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page, Request } from "@playwright/test";
import { SHARED_DATA } from "../setup/shared-data";
import { expect, registerAndSignIn, shareOfNonBackgroundPixels, test } from "./fixtures";
import { BASE_URL, createCreator, disconnect, uploadModel, type Creator } from "./site-seed";

// Issue 17, item 14: every page carries a real Content-Security-Policy (scripts by nonce, no plugins, no
// <base>), and the site, a signed-in session with the Auth emulator, and embeds that render a GLB and a
// splat (three's decoders, Spark's WebAssembly and workers) all work under it with no violation. The
// Shopify admin (/app) and Stripe checkout run under it in shopify-admin.spec.ts and billing.spec.ts.

const VIEWER_BACKGROUND: [number, number, number] = [0x1e, 0x1f, 0x22];

test.afterAll(async () => {
  await disconnect();
});

/** Collects the page's CSP violation reports (the event fires for every blocked load or script). */
async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
}
const violations = (page: Page) => page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);

/** The policy as a map of directive → sources. */
function parsePolicy(header: string | undefined) {
  expect(header, "Content-Security-Policy header").toBeTruthy();
  return Object.fromEntries(header!.split(";").map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
}

/** A splat uploaded through the API, public. */
async function uploadSplat(creator: Creator, name: string) {
  const bytes = readFileSync(path.join(SHARED_DATA, "splats/guitar.ksplat"));
  const call = async (method: string, pathName: string, body?: unknown) => {
    const response = await fetch(`${BASE_URL}/v1${pathName}`, {
      method,
      headers: { Authorization: `Bearer ${creator.token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(response.status, `${method} ${pathName}`).toBe(200);
    return (await response.json()).data;
  };
  const { item_id: itemId } = await call("POST", "/item", { model_type: "ksplat", upload_type: "model", name });
  const link = await call("GET", `/upload/item/${itemId}?uploadType=model`);
  expect((await fetch(link.url, { method: "PUT", body: new Uint8Array(bytes) })).status).toBe(200);
  await call("POST", `/item/${itemId}/file/size`, { size: bytes.length });
  await call("PATCH", `/item/${itemId}`, { visibility: "public" });
  return itemId as string;
}

test("pages send a nonce-based policy, and an injected inline script is refused", async ({ page, request }) => {
  await watchViolations(page);
  for (const pathName of ["/", "/pricing", "/auth", "/embed/00000000-0000-4000-8000-000000000000"]) {
    const response = await request.get(pathName);
    const policy = parsePolicy(response.headers()["content-security-policy"]);
    expect(policy["default-src"], pathName).toEqual(["'self'"]);
    expect(policy["object-src"], pathName).toEqual(["'none'"]);
    expect(policy["base-uri"], pathName).toEqual(["'self'"]);
    expect(policy["script-src"], pathName).not.toContain("'unsafe-inline'");
    expect(policy["script-src"], pathName).not.toContain("'unsafe-eval'");
    const nonces = policy["script-src"].filter((source) => source.startsWith("'nonce-"));
    expect(nonces, pathName).toHaveLength(1);
    const nonce = nonces[0].slice("'nonce-".length, -1);
    // Every script the server wrote carries this response's nonce.
    const html = await response.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length, pathName).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, pathName).toContain(`nonce="${nonce}"`);
    expect(policy["frame-ancestors"], pathName).toEqual(pathName.startsWith("/embed/") ? ["*"] : ["'self'"]);
  }
  // The static legacy pages run no script at all.
  const legacy = parsePolicy((await request.get("/legacy/main.html")).headers()["content-security-policy"]);
  expect(legacy["script-src"]).toEqual(["'none'"]);
  expect(legacy["object-src"]).toEqual(["'none'"]);
  // A fresh nonce per response.
  const again = parsePolicy((await request.get("/pricing")).headers()["content-security-policy"]);
  const first = parsePolicy((await request.get("/pricing")).headers()["content-security-policy"]);
  expect(again["script-src"]).not.toEqual(first["script-src"]);

  // What an injected script (say, through a markup bug) would do is refused by the browser.
  await page.goto("/pricing");
  await expect(page.getByRole("heading", { name: "Pricing" })).toBeVisible();
  const ran = await page.evaluate(async () => {
    const script = document.createElement("script");
    script.textContent = "window.__injected = true;";
    document.body.appendChild(script);
    await new Promise((resolve) => setTimeout(resolve, 100));
    return (window as unknown as { __injected?: boolean }).__injected === true;
  });
  expect(ran).toBe(false);
  expect(await violations(page)).toEqual([expect.stringMatching(/^script-src(-elem)? blocked inline/)]);
});

test("the site signed out and signed in works with no violation", async ({ page, consoleErrors }) => {
  await watchViolations(page);
  for (const pathName of ["/", "/pricing", "/topup", "/contact", "/tutorial", "/auth"]) {
    await page.goto(pathName);
    await expect(page.locator("#main")).toBeVisible();
    // Hydrated: the header's client-side menu responds (React is running).
    await page.waitForFunction(() => document.querySelector("#main") && (window as unknown as { __remixContext?: unknown }).__remixContext);
    expect(await violations(page), pathName).toEqual([]);
  }
  // Registration, verification and sign-in through the Auth emulator, then the signed-in pages.
  await registerAndSignIn(page, { name: "Policy Tester" });
  expect(await violations(page)).toEqual([]);
  for (const pathName of ["/dashboard", "/settings", "/builder", "/dev"]) {
    const response = await page.goto(pathName);
    if (response?.status() === 404) continue; // a page this build does not have
    await expect(page.locator("#main")).toBeVisible();
    expect(await violations(page), pathName).toEqual([]);
  }
  expect(consoleErrors).toEqual([]);
});

test("embeds and model pages render a GLB and a splat under the policy", async ({ page, consoleErrors }) => {
  const creator = await createCreator("Policy Embeds");
  const glbId = await uploadModel(creator, { name: "Policy GLB" });
  const splatId = await uploadSplat(creator, "Policy splat");
  await watchViolations(page);
  for (const [label, itemId] of [
    ["glb", glbId],
    ["splat", splatId],
  ] as const) {
    // The embed and the full-screen viewer name a public model in their HTML: its preload starts the download,
    // and the viewer (for a splat already before hydration, decoded by then) reads that one.
    for (const pagePath of [`/embed/${itemId}`, `/viewer/${itemId}`]) {
      // The model, and a splat's coarse level (?variant=coarse) once its delivery copy is made.
      const modelRequests: string[] = [];
      const coarseRequests: string[] = [];
      const countModelRequests = (request: Request) => {
        const url = new URL(request.url());
        if (url.pathname !== `/v1/item/${itemId}/file`) return;
        (url.searchParams.get("variant") === "coarse" ? coarseRequests : modelRequests).push(request.url());
      };
      page.on("request", countModelRequests);
      await page.goto(pagePath);
      await expect(page.getByRole("toolbar", { name: "Viewer controls" })).toBeVisible({ timeout: 120_000 });
      await expect.poll(() => shareOfNonBackgroundPixels(page, "canvas", VIEWER_BACKGROUND), { timeout: 60_000, message: `${label} drawn` }).toBeGreaterThan(0.01);
      expect(await violations(page), `${label} ${pagePath}`).toEqual([]);
      page.off("request", countModelRequests);
      expect(modelRequests, `${label}: ${pagePath} downloads its model once`).toHaveLength(1);
      expect(coarseRequests.length, `${label}: ${pagePath} downloads a coarse level at most once`).toBeLessThanOrEqual(label === "splat" ? 1 : 0);
      // The model's decode (and its coarse level's, when that came first) began before hydration.
      const earlyDecodeTaken = await page.evaluate(() => performance.getEntriesByName("viewer:early-decode-taken").length);
      if (label === "splat") {
        expect(earlyDecodeTaken, `${label}: ${pagePath} shows the model decoded before hydration`).toBeGreaterThanOrEqual(1);
        expect(earlyDecodeTaken).toBeLessThanOrEqual(1 + coarseRequests.length);
      } else {
        expect(earlyDecodeTaken, `${label}: ${pagePath} decodes nothing before hydration`).toBe(0);
      }
    }
    // The model page with the same viewer, too.
    await page.goto(`/item/${itemId}`);
    await expect(page.getByRole("toolbar", { name: "Viewer controls" })).toBeVisible({ timeout: 120_000 });
    expect(await violations(page), `${label} model page`).toEqual([]);
  }
  expect(consoleErrors).toEqual([]);
});
