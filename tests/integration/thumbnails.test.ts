// Automatic thumbnails (issue 18 item 2): an uploaded .glb and .ply get a thumbnail rendered from the model
// itself, without the owner doing anything; an owner's own thumbnail is never replaced.
import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../setup/api";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { SHARED_DATA } from "../setup/shared-data";
import { startTestServer } from "../setup/test-server";
import { waitFor } from "../setup/wait-for";

const BACKGROUND = [0x1e, 0x1f, 0x22];

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ReturnType<typeof apiClient>;
let alice: TestIdentity;

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server.url);
  alice = await createIdentity({ name: "Alice" });
});

afterAll(async () => {
  await server?.close();
});

async function uploadModel(file: string, modelType: "glb" | "ply", name: string): Promise<string> {
  const bytes = readFileSync(file);
  const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: modelType, upload_type: "model", name } });
  expect(created.status).toBe(200);
  const itemId: string = created.json.data.item_id;
  const link = await api("GET", `/upload/item/${itemId}?uploadType=model`, { token: alice.idToken });
  expect((await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(bytes) })).status).toBe(200);
  expect((await api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { size: bytes.length } })).status).toBe(200);
  return itemId;
}

/** Share of pixels that differ clearly from the viewer's background. */
async function modelShare(image: Buffer): Promise<number> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let differing = 0;
  for (let i = 0; i < data.length; i += 3) {
    if (Math.abs(data[i] - BACKGROUND[0]) + Math.abs(data[i + 1] - BACKGROUND[1]) + Math.abs(data[i + 2] - BACKGROUND[2]) > 40) differing++;
  }
  return differing / (info.width * info.height);
}

describe("automatic thumbnails", () => {
  it.each([
    { file: "models/cat.glb", type: "glb" as const, name: "cat" },
    { file: "splats/guitar.ply", type: "ply" as const, name: "guitar" },
  ])("an uploaded $name .$type gets a 640×480 thumbnail of the model without the owner acting", { timeout: 120_000 }, async ({ file, type, name }) => {
    const itemId = await uploadModel(path.join(SHARED_DATA, file), type, name);
    const url = await waitFor(
      `the thumbnail of ${name}`,
      async () => (await api("GET", `/item/${itemId}`, { token: alice.idToken })).json.data.thumbnail_url as string | null,
      90_000,
    );
    const response = await fetch(`${server.url}${url}`, { headers: { Authorization: `Bearer ${alice.idToken}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    const image = Buffer.from(await response.arrayBuffer());
    const meta = await sharp(image).metadata();
    expect([meta.width, meta.height]).toEqual([640, 480]);
    const share = await modelShare(image);
    console.warn(`[thumbnails] ${name}: ${(share * 100).toFixed(1)} % of the thumbnail shows the model (bound: > 2 %)`);
    expect(share).toBeGreaterThan(0.02);
  });

  it("never replaces a thumbnail the owner chose", { timeout: 120_000 }, async () => {
    const itemId = await uploadModel(path.join(SHARED_DATA, "models/cat.glb"), "glb", "cat mine");
    await waitFor("the automatic thumbnail", async () => (await api("GET", `/item/${itemId}`, { token: alice.idToken })).json.data.thumbnail_url, 90_000);
    // The owner's own image ("use this view" uploads one the same way).
    const link = await api("POST", `/item/${itemId}/thumbnail`, { token: alice.idToken });
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#ff0000" } }).png().toBuffer();
    expect((await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(png) })).status).toBe(200);
    const chosen = (await api("PUT", `/item/${itemId}/thumbnail`, { token: alice.idToken, body: { path: link.json.data.path } })).json.data.thumbnail_url;
    // The job for the same file running again (a retry, a late duplicate) leaves it.
    const { createItemThumbnail, thumbnailSource } = await import("~/domain/item-thumbnails.server");
    const { db } = await import("~/db.server");
    const item = await db().item.findUniqueOrThrow({ where: { id: itemId } });
    const outcome = await createItemThumbnail({ itemId, sourceKey: thumbnailSource(item)!.key });
    expect(outcome).toEqual({ status: "skipped", reason: "the owner chose the thumbnail" });
    expect((await api("GET", `/item/${itemId}`, { token: alice.idToken })).json.data.thumbnail_url).toBe(chosen);
  });
});
