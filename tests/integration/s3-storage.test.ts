import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3Storage } from "~/storage/s3.server";
import { apiClient } from "../setup/api";
import { s3AppEnv, s3TestConfig, XOR_KEY } from "../setup/config";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { ensureTestMedia } from "../setup/media";
import { SHARED_DATA } from "../setup/shared-data";
import { startTestServer } from "../setup/test-server";

// The model-file flow through the API with STORAGE_DRIVER=s3: the browser PUTs to the S3 server
// (which checks the signature), and POST /file/size judges the stored bytes it reads back from S3.
const catGlb = readFileSync(path.join(SHARED_DATA, "models/cat.glb"));
const guitarPly = readFileSync(path.join(SHARED_DATA, "splats/guitar.ply"));
Object.assign(process.env, s3AppEnv(), { MAX_MODEL_BYTES: String(Math.max(catGlb.length, guitarPly.length)) });
const bucket = new S3Storage(s3TestConfig());

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ReturnType<typeof apiClient>;
let alice: TestIdentity;
beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server.url);
  alice = await createIdentity({ name: "Alice" });
});
afterAll(() => server?.close());

async function upload(bytes: Uint8Array, modelType: "glb" | "ply") {
  const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: modelType, upload_type: "model" } });
  expect(created.status).toBe(200);
  const itemId: string = created.json.data.item_id;
  const link = await api("GET", `/upload/item/${itemId}?uploadType=model`, { token: alice.idToken });
  expect(link.status).toBe(200);
  const { url, path: key } = link.json.data as { url: string; path: string };
  expect(url.startsWith(`${s3TestConfig().endpoint}/${s3TestConfig().bucket}/`)).toBe(true);
  const put = await fetch(url, { method: "PUT", body: new Uint8Array(bytes) });
  return { itemId, key, put };
}

const confirm = (itemId: string, size: number) => api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { size } });

describe("model files on S3", () => {
  it("create → upload link → PUT to S3 → file/size → ready → GET file gives the bytes back", async () => {
    const { itemId, key, put } = await upload(catGlb, "glb");
    expect(put.status).toBe(200);
    expect((await bucket.stat(key))?.size).toBe(catGlb.length);
    const size = await confirm(itemId, catGlb.length);
    expect(size.status).toBe(200);
    expect(size.json.data).toMatchObject({ status: "ready", file_size: catGlb.length });

    const file = await fetch(`${server.url}/v1/item/${itemId}/file?original=true`, { headers: { Authorization: `Bearer ${alice.idToken}` } });
    expect(file.status).toBe(200);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const xor = new TextEncoder().encode(XOR_KEY);
    expect(Buffer.from(bytes.map((b, i) => b ^ xor[i % xor.length])).equals(catGlb)).toBe(true);
  });

  it("an upload link cannot be reused for another key, and a tampered one is refused by S3", async () => {
    const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "glb", upload_type: "model" } });
    const link = await api("GET", `/upload/item/${created.json.data.item_id}?uploadType=model`, { token: alice.idToken });
    const url = new URL(link.json.data.url);
    url.pathname = url.pathname.replace(/[^/]+$/, "elsewhere.glb");
    expect((await fetch(url, { method: "PUT", body: catGlb.subarray(0, 100) })).status).toBe(403);
  });

  it("bytes that are not the declared type reach S3 (it cannot look inside) but file/size refuses them and deletes them", async () => {
    const { itemId, key, put } = await upload(guitarPly, "glb");
    expect(put.status).toBe(200);
    const size = await confirm(itemId, guitarPly.length);
    expect(size.status).toBe(400);
    expect(size.json).toMatchObject({ status: 400, error: "invalid_file" });
    expect(await bucket.stat(key)).toBeNull();
    expect((await api("GET", `/item/${itemId}`, { token: alice.idToken })).json.data.status).toBe("uploading");
  });

  it("judges containers by their contents read from S3: a gzip of HTML and a zip whose meta.json is HTML", async () => {
    const html = gzipSync(Buffer.from("<!doctype html><html><body>not a model</body></html>"));
    const gz = await upload(html, "ply");
    const gzSize = await confirm(gz.itemId, html.length);
    expect(gzSize.json).toMatchObject({ status: 400, error: "invalid_file" });
    expect(gzSize.json.message).toMatch(/SPZ header/);
    expect(await bucket.stat(gz.key)).toBeNull();

    const { sogLikeZip } = await import("../setup/sog-like-zip");
    const bundle = sogLikeZip({ "meta.json": "<!doctype html><html><body>not a model</body></html>" });
    const zip = await upload(bundle, "ply");
    const zipSize = await confirm(zip.itemId, bundle.length);
    expect(zipSize.json).toMatchObject({ status: 400, error: "invalid_file" });
    expect(zipSize.json.message).toMatch(/meta\.json is not JSON/);
    expect(await bucket.stat(zip.key)).toBeNull();
  });

  it("a stored size other than the reported one, or over the upload limit, is refused at file/size and deleted", async () => {
    const short = await upload(catGlb, "glb");
    const wrong = await confirm(short.itemId, catGlb.length + 1);
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe("invalid_file");
    expect(await bucket.stat(short.key)).toBeNull();

    // A presigned S3 PUT carries no maximum: the bytes land, and the confirmation refuses them.
    const tooBig = Buffer.concat([guitarPly, Buffer.alloc(1)]);
    const big = await upload(tooBig, "ply");
    expect(big.put.status).toBe(200);
    const refused = await confirm(big.itemId, tooBig.length);
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(/larger than the upload limit/);
    expect(await bucket.stat(big.key)).toBeNull();
  });
});

describe("scan inputs on S3", () => {
  it("a video uploaded to S3 is read there for its size and length, and its scan is accepted", async () => {
    const media = await ensureTestMedia();
    const video = readFileSync(media.tiny);
    const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "ply", upload_type: "video" } });
    expect(created.status).toBe(200);
    const itemId: string = created.json.data.item_id;
    const link = await api("GET", `/upload/video/${itemId}?filename=clip.mp4`, { token: alice.idToken });
    expect(link.status).toBe(200);
    expect((link.json.data.url as string).startsWith(`${s3TestConfig().endpoint}/`)).toBe(true);
    expect((await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(video) })).status).toBe(200);
    // The server probes the stored video through a signed link to the (http) S3 endpoint.
    const scan = await api("POST", `/scan/video/${itemId}`, {
      token: alice.idToken,
      body: { duration: 1, width: 1920, height: 1080, input_bucket_path: link.json.data.path },
    });
    expect(scan.status, JSON.stringify(scan.json)).toBe(200);
    expect(scan.json.data).toMatchObject({ item_id: itemId, status: "queued" });
  });
});

