import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SHARED_PAGE_SECONDS } from "~/lib/public-page-cache";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";
import { uploadReadyModel } from "../setup/upload-model";

// Decision 072: a model page whose kept copy expired goes to its next visitors at once while the web process
// renders it again for no one (as every kept page does, decision 069), and that render counts no view: a model's
// view count is the number of pages its visitors got.

// The cache on, as in the product (other files turn it off: tests/setup/per-file-database.ts); model pages kept
// only for their s-maxage, so that one expires within the test.
process.env.SHARED_PAGE_CACHE_MB = "64";
process.env.SHARED_PAGE_KEPT_SECONDS = "0";
const glb = readFileSync(path.join(SHARED_DATA, "models/SpecularTest.glb"));
const app = serveAppForFile();
const api = app.api;
let owner: TestIdentity;

beforeAll(async () => {
  owner = await createIdentity({ name: "Refresh Owner" });
});

const age = async (pathName: string) => {
  const response = await fetch(`${app.url}${pathName}`);
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return response.headers.get("age") === null ? null : Number(response.headers.get("age"));
};
const views = async (itemId: string) => (await api("GET", `/item/${itemId}`, { token: owner.idToken })).json.data.view_count as number;

describe("an expired model page", () => {
  it("goes to its visitor at once while it renders again for no one, and only visitors' pages count views", async () => {
    const itemId = await uploadReadyModel(api, owner, { bytes: glb, modelType: "glb", name: "Refreshed page", visibility: "public" });
    const modelPage = `/item/${itemId}`;
    expect(await age(modelPage)).toBeNull();
    let pagesGot = 1;
    await new Promise((resolve) => setTimeout(resolve, (SHARED_PAGE_SECONDS + 1) * 1000));
    // Expired: its visitor gets the kept copy, not a render of their own.
    expect(await age(modelPage)).toBeGreaterThan(SHARED_PAGE_SECONDS);
    pagesGot += 1;
    // The render for no one replaces it: the next visitors get a new copy.
    await expect
      .poll(async () => ((pagesGot += 1), await age(modelPage)), { timeout: 5_000, interval: 100 })
      .toBeLessThan(SHARED_PAGE_SECONDS);
    // Views are added every second: every page a visitor got counts one, the render for no one none.
    await expect.poll(() => views(itemId), { timeout: 10_000 }).toBe(pagesGot);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await views(itemId)).toBe(pagesGot);
    process.stdout.write(`an expired model page: ${pagesGot} pages to visitors, ${await views(itemId)} views counted\n`);
  });
});
