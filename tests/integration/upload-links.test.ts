import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { rawPut } from "../setup/raw-put";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";

const glb = readFileSync(path.join(SHARED_DATA, "models/SpecularTest.glb"));
const PNG_1PX = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" + "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201e2a6d8be0000000049454e44ae426082",
  "hex",
);

const app = serveAppForFile();
const api = app.api;
let alice: TestIdentity;

beforeAll(async () => {
  alice = await createIdentity({ name: "Alice" });
});

const stored = (...parts: string[]) => path.join(process.env.STORAGE_DIR!, ...parts);

async function newModelLink(owner: TestIdentity) {
  const created = await api("POST", "/item", { token: owner.idToken, body: { model_type: "glb", upload_type: "model" } });
  expect(created.status).toBe(200);
  const itemId: string = created.json.data.item_id;
  const link = await api("GET", `/upload/item/${itemId}?uploadType=model`, { token: owner.idToken });
  expect(link.status).toBe(200);
  return { itemId, url: link.json.data.url as string };
}

describe("upload links do not outlive their item or user (issue 17 item 9)", () => {
  it("refuses a PUT to a deleted item's link with 404 and leaves nothing behind", async () => {
    const { itemId, url } = await newModelLink(alice);
    expect((await api("DELETE", `/item/${itemId}`, { token: alice.idToken })).status).toBe(200);
    const put = await rawPut(url, glb);
    expect(put).not.toBe("reset");
    if (put === "reset" || put === "aborted") return;
    expect(put.status).toBe(404);
    expect(JSON.parse(put.text)).toMatchObject({ status: 404, error: "not_found" });
    expect(existsSync(stored("items", itemId))).toBe(false);
  });

  it("refuses a PUT to a deleted account's avatar link with 404 and leaves nothing behind", async () => {
    const bob = await createIdentity({ name: "Bob" });
    expect((await api("GET", "/user", { token: bob.idToken })).status).toBe(200);
    const avatar = await api("POST", "/user/avatar", { token: bob.idToken });
    expect(avatar.status).toBe(200);
    const userId = (avatar.json.data.path as string).split("/")[1];
    expect((await api("DELETE", "/user", { token: bob.idToken })).status).toBe(200);
    const put = await rawPut(avatar.json.data.url, PNG_1PX);
    if (put === "reset" || put === "aborted") throw new Error(`the PUT got no answer (${put})`);
    expect(put.status).toBe(404);
    expect(existsSync(stored("users", userId))).toBe(false);
  });

  it("still accepts the link while its item exists", async () => {
    const { url } = await newModelLink(alice);
    const put = await rawPut(url, glb);
    if (put === "reset" || put === "aborted") throw new Error(`the PUT got no answer (${put})`);
    expect(put.status).toBe(200);
  });
});

// Which origins a link may name (allowed hosts, configured proxies, forged hosts): link-origins.test.ts.
describe("signed storage URLs follow the origin the request came to (issue 17 item 2)", () => {
  it("names the server's own origin when called directly", async () => {
    const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "glb", upload_type: "model" } });
    const link = await api("GET", `/upload/item/${created.json.data.item_id}?uploadType=model`, { token: alice.idToken });
    expect(new URL(link.json.data.url).origin).toBe(app.url);
  });
});
