// More formats in (issue 18 item 6, docs/decisions/026): .spz, .splat and .sog uploads declared as their own
// model_type go through the real model-file flow, are checked by their content, and reach viewers — .spz and
// .splat as a .sog delivery copy made on the CPU, a .sog as uploaded. Wrong content gets a 400 naming the problem.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { inspectSogBundle } from "~/formats/sog-bundle.server";
import { XOR_KEY } from "../setup/config";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";
import { splatSamples, type SplatSamples } from "../setup/splat-samples";
import { waitForDeliveredFormat } from "../setup/upload-model";

const app = serveAppForFile();
const api = app.api;
let alice: TestIdentity;
let samples: SplatSamples;

beforeAll(async () => {
  samples = splatSamples();
  alice = await createIdentity({ name: "Alice" });
}, 120_000);

type NewType = "spz" | "splat" | "sog";

/** create → upload link → PUT → (when the PUT is taken) report the size. */
async function upload(bytes: Buffer, modelType: NewType, name: string) {
  const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: modelType, upload_type: "model", name } });
  expect(created.status).toBe(200);
  const itemId: string = created.json.data.item_id;
  const link = await api("GET", `/upload/item/${itemId}?uploadType=model`, { token: alice.idToken });
  expect(link.status).toBe(200);
  const put = await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(bytes) });
  const putBody = put.status === 200 ? null : await put.json();
  const size = put.status === 200 ? await api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { size: bytes.length } }) : null;
  return { itemId, key: link.json.data.path as string, put: { status: put.status, json: putBody }, size };
}

function unxor(bytes: Uint8Array): Buffer {
  const key = new TextEncoder().encode(XOR_KEY);
  return Buffer.from(bytes.map((b, i) => b ^ key[i % key.length]));
}

async function download(itemId: string, original = false) {
  const response = await fetch(`${app.url}/v1/item/${itemId}/file${original ? "?original=true" : ""}`, {
    headers: { Authorization: `Bearer ${alice.idToken}` },
  });
  expect(response.status).toBe(200);
  return { bytes: unxor(new Uint8Array(await response.arrayBuffer())), disposition: response.headers.get("content-disposition") };
}

const deliveredFormat = (itemId: string, expected: string) => waitForDeliveredFormat(api, alice, itemId, expected);

describe("uploads of .spz, .splat and .sog declared as their own model type", () => {
  const cases: Array<{ type: NewType; file: () => string; splats: () => number; label: string }> = [
    { type: "spz", label: "an SPZ 3 (gzip) .spz", file: () => samples.spz, splats: () => samples.splats },
    { type: "spz", label: "an SPZ 4 .spz", file: () => path.join(SHARED_DATA, "splats/biker.spz"), splats: () => 152_746 },
    { type: "splat", label: "a .splat", file: () => samples.splat, splats: () => samples.splats },
  ];

  for (const sample of cases) {
    it(`takes ${sample.label}, shows it at once and delivers a .sog made from it`, { timeout: 180_000 }, async () => {
      const bytes = readFileSync(sample.file());
      const { itemId, size } = await upload(bytes, sample.type, `guitar ${sample.label}`);
      expect(size?.status).toBe(200);
      expect(size?.json.data).toMatchObject({ item_id: itemId, status: "ready", file_size: bytes.length });

      const item = await deliveredFormat(itemId, "sog");
      expect(item).toMatchObject({ model_type: sample.type, file_format: sample.type, status: "ready" });
      const delivered = await download(itemId);
      expect(inspectSogBundle(delivered.bytes).splats).toBe(sample.splats());
      expect(delivered.disposition).toMatch(/\.sog"$/);
      const original = await download(itemId, true);
      expect(original.bytes.equals(bytes)).toBe(true);
      expect(original.disposition).toMatch(new RegExp(`\\.${sample.type}"$`));
    });
  }

  it("takes a .sog and serves it as uploaded: it is already the delivery format", async () => {
    const bytes = readFileSync(samples.sog);
    const { itemId, size } = await upload(bytes, "sog", "guitar sog");
    expect(size?.status).toBe(200);
    expect(size?.json.data.status).toBe("ready");
    const item = await api("GET", `/item/${itemId}`, { token: alice.idToken });
    expect(item.json.data).toMatchObject({ model_type: "sog", file_format: "sog", delivered_format: "sog" });
    const delivered = await download(itemId);
    expect(delivered.bytes.equals(bytes)).toBe(true);
    expect(inspectSogBundle(delivered.bytes).splats).toBe(samples.splats);
    expect(delivered.disposition).toBe('attachment; filename="guitar sog.sog"');
  });

  it("lists the owner's models by the new types", async () => {
    const listed = await api("GET", "/items?owner=me&model_type=splat", { token: alice.idToken });
    expect(listed.status).toBe(200);
    const types = new Set((listed.json.data.items as Array<{ model_type: string }>).map((item) => item.model_type));
    expect([...types]).toEqual(["splat"]);
  });
});

describe("wrong content for the new types is refused with a 400 saying why, and nothing is kept", () => {
  const storage = async () => (await import("~/storage/index.server")).storage();

  async function expectRefusedAtSize(bytes: Buffer, type: NewType, message: string | RegExp) {
    const { itemId, key, put, size } = await upload(bytes, type, "bad");
    expect(put.status).toBe(200);
    expect(size?.status).toBe(400);
    expect(size?.json).toMatchObject({ status: 400, error: "invalid_file" });
    if (typeof message === "string") expect(size?.json.message).toBe(message);
    else expect(size?.json.message).toMatch(message);
    expect(await (await storage()).stat(key)).toBeNull();
    expect((await api("GET", `/item/${itemId}`, { token: alice.idToken })).json.data.status).toBe("uploading");
  }

  async function expectRefusedAtPut(bytes: Buffer, type: NewType, message: string) {
    const { key, put } = await upload(bytes, type, "bad");
    expect(put).toEqual({ status: 400, json: { status: 400, error: "invalid_file", message } });
    expect(await (await storage()).stat(key)).toBeNull();
  }

  it("a .splat whose size is not whole 32-byte records", async () => {
    const cut = readFileSync(samples.splat).subarray(0, 32 * 1000 + 7);
    await expectRefusedAtSize(cut, "splat", `The .splat file's size (${cut.length} bytes) is not a whole number of 32-byte splats.`);
  });

  it("a .splat of other bytes sized as whole records", async () => {
    const text = Buffer.from("<!doctype html><title>not a model</title>".padEnd(64, " ").repeat(100));
    await expectRefusedAtSize(text, "splat", /impossible (position|scale); it is not a \.splat model\./);
  });

  it("a .spz that is not gzip (nor SPZ 4): a .ply renamed", async () => {
    const ply = readFileSync(path.join(SHARED_DATA, "splats/guitar.ply")).subarray(0, 100_000);
    await expectRefusedAtPut(
      ply,
      "spz",
      "The file's contents are not a valid .spz model. Its bytes are a .ply file. A .spz is a gzip stream (SPZ 1–3) or starts with an NGSP header (SPZ 4).",
    );
  });

  it("a .spz that is gzip but holds no splat", async () => {
    await expectRefusedAtSize(gzipSync(Buffer.from("<!doctype html><html>not a model</html>")), "spz", /no SPZ header inside the gzip/);
  });

  it("a .sog that is not a zip bundle", async () => {
    await expectRefusedAtPut(
      readFileSync(samples.spz),
      "sog",
      "The file's contents are not a valid .sog model. Its bytes are a .spz file. A .sog is a zip bundle of meta.json and WebP images.",
    );
  });

  it("an unknown model_type still gets the validation message listing all six", async () => {
    const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "obj", upload_type: "model" } });
    expect(created.status).toBe(400);
    expect(JSON.stringify(created.json)).toContain("model_type must be one of glb, ply, ksplat, spz, splat, sog");
  });
});
