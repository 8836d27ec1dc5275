// Delivery copies (issue 6): a splat uploaded as .ply/.spz gets a compact .sog made in the background,
// served to viewers by GET /v1/item/{id}/file with ETags, while its owner can still download the original.
// Large splats also get a coarse copy (issue 20), served by ?variant=coarse, which viewers show first.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inspectSogBundle } from "~/formats/sog-bundle.server";
import { coarseSplatTarget } from "~/domain/splat-delivery.server";
import { XOR_KEY } from "../setup/config";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";

const DATA = SHARED_DATA;
const guitarPly = readFileSync(path.join(DATA, "splats/guitar.ply"));
const bikerSpz = readFileSync(path.join(DATA, "splats/biker.spz"));

const app = serveAppForFile();
const api = app.api;
let alice: TestIdentity;
let bob: TestIdentity;

beforeAll(async () => {
  [alice, bob] = await Promise.all([createIdentity({ name: "Alice" }), createIdentity({ name: "Bob" })]);
});

async function uploadSplat(bytes: Buffer, name: string): Promise<string> {
  const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "ply", upload_type: "model", name } });
  expect(created.status).toBe(200);
  const itemId: string = created.json.data.item_id;
  const link = await api("GET", `/upload/item/${itemId}?uploadType=model`, { token: alice.idToken });
  expect((await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(bytes) })).status).toBe(200);
  const size = await api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { size: bytes.length } });
  expect(size.status).toBe(200);
  return itemId;
}

/**
 * Waits until the item's delivery job has run (the queue works in this process: the app runs in it). The job
 * reaches the queue a moment after the upload commits (the outbox's relay), whose schema the first job creates.
 */
async function deliveryJobDone(itemId: string) {
  const { db } = await import("~/db.server");
  for (let i = 0; i < 240; i++) {
    const rows = await db()
      .$queryRawUnsafe<Array<{ state: string }>>(`SELECT state::text FROM pgboss.job WHERE name = 'splat-delivery' AND data->>'itemId' = $1`, itemId)
      .catch((error: Error) => {
        if (/relation "pgboss.job" does not exist/.test(error.message)) return [];
        throw error;
      });
    if (rows.length > 0 && rows.every((row) => row.state === "completed")) return;
    if (rows.some((row) => row.state === "failed")) throw new Error(`the delivery job of ${itemId} failed`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the delivery job of ${itemId} did not finish`);
}

/** The first `count` splats of a binary 3DGS .ply (header rewritten). */
function firstSplats(ply: Buffer, count: number): Buffer {
  const end = ply.indexOf("end_header\n") + "end_header\n".length;
  const header = ply.subarray(0, end).toString("latin1");
  const properties = (header.match(/^property /gm) ?? []).length;
  return Buffer.concat([Buffer.from(header.replace(/element vertex \d+/, `element vertex ${count}`), "latin1"), ply.subarray(end, end + count * properties * 4)]);
}

function unxor(bytes: Uint8Array): Buffer {
  const key = new TextEncoder().encode(XOR_KEY);
  return Buffer.from(bytes.map((b, i) => b ^ key[i % key.length]));
}

async function download(itemId: string, { token, original = false, coarse = false, etag }: { token?: string; original?: boolean; coarse?: boolean; etag?: string } = {}) {
  const query = original ? "?original=true" : coarse ? "?variant=coarse" : "";
  return fetch(`${app.url}/v1/item/${itemId}/file${query}`, {
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(etag ? { "If-None-Match": etag } : {}) },
  });
}

describe("delivery copies", () => {
  it("serves viewers a .sog made from an uploaded .ply; the owner still downloads the original", { timeout: 120_000 }, async () => {
    const itemId = await uploadSplat(guitarPly, "guitar");
    await deliveryJobDone(itemId);

    const owner = await api("GET", `/item/${itemId}`, { token: alice.idToken });
    expect(owner.json.data).toMatchObject({
      file_format: "ply",
      delivered_format: "sog",
      model_url: `/v1/item/${itemId}/file`,
      original_url: `/v1/item/${itemId}/file?original=true`,
      model_coarse_url: `/v1/item/${itemId}/file?variant=coarse`,
    });
    // While the item is private, its coarse copy is its owner's like the rest.
    expect((await download(itemId, { token: alice.idToken, coarse: true })).status).toBe(200);
    for (const token of [bob.idToken, undefined]) {
      const refused = await download(itemId, { token, coarse: true });
      expect(refused.status).toBe(404);
      expect(await refused.json()).toMatchObject({ status: 404, error: "not_found" });
    }
    expect((await api("PATCH", `/item/${itemId}`, { token: alice.idToken, body: { visibility: "public" } })).status).toBe(200);
    const visitor = await api("GET", `/item/${itemId}`, { token: bob.idToken });
    expect(visitor.json.data).toMatchObject({ delivered_format: "sog", original_url: null, model_coarse_url: `/v1/item/${itemId}/file?variant=coarse` });

    // Anyone who may see the item gets the compact copy, XOR-obfuscated like every model download.
    const delivered = await download(itemId);
    expect(delivered.status).toBe(200);
    const sog = unxor(new Uint8Array(await delivered.arrayBuffer()));
    expect(Number(delivered.headers.get("content-length"))).toBe(sog.length);
    expect(sog.length).toBeLessThan(guitarPly.length * 0.3);
    expect(inspectSogBundle(sog).splats).toBe(90_854);
    expect(delivered.headers.get("content-disposition")).toBe('attachment; filename="guitar.sog"');

    // A second view downloads nothing: the ETag matches, whoever asks (no Vary on the token).
    const etag = delivered.headers.get("etag")!;
    expect(delivered.headers.get("cache-control")).toBe("private, no-cache");
    const revalidated = await download(itemId, { token: bob.idToken, etag });
    expect(revalidated.status).toBe(304);
    expect((await revalidated.arrayBuffer()).byteLength).toBe(0);

    // The original, byte for byte, for the owner only; its ETag never answers for the copy.
    const original = await download(itemId, { token: alice.idToken, original: true });
    expect(original.status).toBe(200);
    expect(unxor(new Uint8Array(await original.arrayBuffer())).equals(guitarPly)).toBe(true);
    expect(original.headers.get("etag")).not.toBe(etag);
    expect((await download(itemId, { token: alice.idToken, etag: original.headers.get("etag")!, original: true })).status).toBe(304);
    expect((await download(itemId, { token: alice.idToken, etag: original.headers.get("etag")! })).status).toBe(200);
    for (const token of [bob.idToken, undefined]) {
      const refused = await download(itemId, { token, original: true });
      expect(refused.status).toBe(404);
      expect(await refused.json()).toMatchObject({ status: 404, error: "not_found" });
    }
    const bogus = await fetch(`${app.url}/v1/item/${itemId}/file?original=maybe`);
    expect(bogus.status).toBe(400);
    expect((await fetch(`${app.url}/v1/item/${itemId}/file?variant=tiny`)).status).toBe(400);

    // The coarse copy viewers show first: a tenth of the splats, no spherical harmonics, for anyone who sees the item.
    const coarseServed = await download(itemId, { coarse: true });
    expect(coarseServed.status).toBe(200);
    const coarseSog = unxor(new Uint8Array(await coarseServed.arrayBuffer()));
    const coarseSummary = inspectSogBundle(coarseSog);
    expect(coarseSummary.splats).toBe(coarseSplatTarget(90_854));
    expect(coarseSummary.splats).toBe(9_086);
    expect(coarseSummary.files.some((file) => file.startsWith("shN"))).toBe(false);
    expect(coarseSog.length).toBeLessThan(sog.length / 5);
    const coarseEtag = coarseServed.headers.get("etag")!;
    expect(coarseEtag).toMatch(/^"c-/);
    expect(coarseEtag).not.toBe(etag);
    expect((await download(itemId, { coarse: true, etag: coarseEtag })).status).toBe(304);
    expect((await download(itemId, { etag: coarseEtag })).status).toBe(200);
    const { db } = await import("~/db.server");
    const stored = await db().item.findUniqueOrThrow({ where: { id: itemId }, select: { deliveryCoarseKey: true, deliveryCoarseSize: true } });
    expect(stored.deliveryCoarseKey).toMatch(new RegExp(`^items/${itemId}/delivery/[0-9a-f]{24}\\.coarse\\.sog$`));
    expect(Number(stored.deliveryCoarseSize)).toBe(coarseSog.length);
  });

  it("makes no coarse copy of a small splat (under 40,000 splats)", { timeout: 120_000 }, async () => {
    const small = firstSplats(guitarPly, 30_000);
    const itemId = await uploadSplat(small, "a third of a guitar");
    await deliveryJobDone(itemId);
    const item = await api("GET", `/item/${itemId}`, { token: alice.idToken });
    expect(item.json.data).toMatchObject({ delivered_format: "sog", model_coarse_url: null });
    const delivered = unxor(new Uint8Array(await (await download(itemId, { token: alice.idToken })).arrayBuffer()));
    expect(inspectSogBundle(delivered).splats).toBe(30_000);
    const none = await download(itemId, { token: alice.idToken, coarse: true });
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ status: 404, error: "not_found" });
  });

  it("makes an SPZ v4 upload (which the viewer cannot decode) viewable as .sog", { timeout: 120_000 }, async () => {
    const itemId = await uploadSplat(bikerSpz, "biker");
    await deliveryJobDone(itemId);
    const item = await api("GET", `/item/${itemId}`, { token: alice.idToken });
    expect(item.json.data).toMatchObject({ file_format: "spz", delivered_format: "sog" });
    const sog = unxor(new Uint8Array(await (await download(itemId, { token: alice.idToken })).arrayBuffer()));
    expect(inspectSogBundle(sog).splats).toBe(152_746);
    const coarse = unxor(new Uint8Array(await (await download(itemId, { token: alice.idToken, coarse: true })).arrayBuffer()));
    expect(inspectSogBundle(coarse).splats).toBe(coarseSplatTarget(152_746));
  });

  it("keeps serving the original when the file cannot be converted (a truncated .ply)", { timeout: 60_000 }, async () => {
    const truncated = guitarPly.subarray(0, Math.floor(guitarPly.length / 2));
    const itemId = await uploadSplat(truncated, "half a guitar");
    await deliveryJobDone(itemId);
    const item = await api("GET", `/item/${itemId}`, { token: alice.idToken });
    expect(item.json.data).toMatchObject({ file_format: "ply", delivered_format: "ply", model_coarse_url: null });
    const served = await download(itemId, { token: alice.idToken });
    expect(unxor(new Uint8Array(await served.arrayBuffer())).equals(truncated)).toBe(true);
  });
});
