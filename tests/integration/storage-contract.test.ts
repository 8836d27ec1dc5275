import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StorageDriver } from "~/storage/driver";
import { LocalDiskStorage } from "~/storage/local-disk.server";
import { S3Storage } from "~/storage/s3.server";
import { s3TestConfig } from "../setup/config";
import { rawPut } from "../setup/raw-put";
import { startTestServer } from "../setup/test-server";

// The storage driver's whole contract (app/storage/driver.ts), run unchanged against both drivers:
// local disk (signed URLs served by the real app over HTTP) and S3 (the run's S3 server, which
// checks SigV4 signatures, expiry, signed lengths and multipart rules as S3 does).
process.env.STORAGE_SIGNING_SECRET = randomBytes(24).toString("hex");
let server: Awaited<ReturnType<typeof startTestServer>>;
const drivers: Record<string, () => StorageDriver> = {};
beforeAll(async () => {
  server = await startTestServer();
  const local = new LocalDiskStorage(process.env.STORAGE_DIR!, process.env.STORAGE_SIGNING_SECRET!, server.url);
  const s3 = new S3Storage(s3TestConfig());
  drivers.local = () => local;
  drivers.s3 = () => s3;
});
afterAll(() => server?.close());

const MiB = 1024 * 1024;
const bytesOf = (length: number) => new Uint8Array(randomBytes(length));
const read = async (stream: Readable) => Buffer.concat((await stream.toArray()) as Buffer[]);
// Large bodies are compared by digest: a deep equality over millions of bytes takes minutes.
const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const put = (url: string, body: Uint8Array) => fetch(url, { method: "PUT", body: new Uint8Array(body) });

describe.each(["local", "s3"])("the %s storage driver", (name) => {
  const store = () => drivers[name]();
  const prefix = `contract/${name}-${randomBytes(4).toString("hex")}`;

  it("signs a PUT and a GET: the bytes come back, with the file name asked for", async () => {
    const key = `${prefix}/put-get/model.glb`;
    const body = bytesOf(3000);
    const upload = await store().createUploadUrl({ key, expiresInSeconds: 60, maxBytes: 10_000 });
    expect((await put(upload, body)).status).toBe(200);
    const download = await store().createDownloadUrl({ key, expiresInSeconds: 60, fileName: "chair.glb" });
    const got = await fetch(download);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-disposition")).toContain('filename="chair.glb"');
    expect(Buffer.from(await got.arrayBuffer())).toEqual(Buffer.from(body));
  });

  it("refuses a URL whose signature was tampered with, or that is signed for another key", async () => {
    const key = `${prefix}/tamper/a.bin`;
    await store().write(key, bytesOf(10));
    const download = new URL(await store().createDownloadUrl({ key, expiresInSeconds: 60 }));
    const signatureParam = name === "s3" ? "X-Amz-Signature" : "sig";
    const signature = download.searchParams.get(signatureParam)!;
    expect(signature).toBeTruthy();
    const flipped = new URL(download);
    flipped.searchParams.set(signatureParam, (signature[0] === "0" ? "1" : "0") + signature.slice(1));
    expect((await fetch(flipped)).status).toBe(403);
    const otherKey = new URL(download);
    otherKey.pathname = otherKey.pathname.replace("a.bin", "b.bin");
    expect((await fetch(otherKey)).status).toBe(403);
    const upload = new URL(await store().createUploadUrl({ key: `${prefix}/tamper/c.bin`, expiresInSeconds: 60, maxBytes: 100 }));
    upload.pathname = upload.pathname.replace("c.bin", "d.bin");
    expect((await put(upload.toString(), bytesOf(5))).status).toBe(403);
    expect(await store().stat(`${prefix}/tamper/d.bin`)).toBeNull();
  });

  it("refuses URLs once they expire", async () => {
    const key = `${prefix}/expiry/a.bin`;
    await store().write(key, bytesOf(10));
    const download = await store().createDownloadUrl({ key, expiresInSeconds: 1 });
    const upload = await store().createUploadUrl({ key: `${prefix}/expiry/b.bin`, expiresInSeconds: 1, maxBytes: 100 });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await fetch(download)).status).toBe(403);
    expect((await put(upload, bytesOf(5))).status).toBe(403);
    expect(await store().stat(`${prefix}/expiry/b.bin`)).toBeNull();
  });

  it("limits what one PUT may store: the upload limit on local disk; S3 signs no limit, the confirmation checks the size", async () => {
    const key = `${prefix}/limit/big.bin`;
    const upload = await store().createUploadUrl({ key, expiresInSeconds: 60, maxBytes: 1000 });
    const answer = await put(upload, bytesOf(1001));
    if (name === "local") {
      expect(answer.status).toBe(413);
      expect(await store().stat(key)).toBeNull();
    } else {
      // A presigned S3 PUT cannot carry a maximum (only POST policies can): the bytes land, and
      // POST /file/size refuses them by their stored size (tests/integration/s3-storage.test.ts).
      expect(answer.status).toBe(200);
      expect((await store().stat(key))?.size).toBe(1001);
    }
  });

  it("stat, readHead and ranged reads see the stored bytes; missing objects stat as null", async () => {
    const key = `${prefix}/read/data.bin`;
    const body = bytesOf(4096);
    expect(await store().write(key, Readable.from([Buffer.from(body)]))).toBe(4096);
    const stat = await store().stat(key);
    expect(stat?.size).toBe(4096);
    expect(stat?.etag).toBeTruthy();
    expect(await store().stat(`${prefix}/read/missing.bin`)).toBeNull();
    expect(Buffer.from(await store().readHead(key, 16))).toEqual(Buffer.from(body.subarray(0, 16)));
    const short = `${prefix}/read/short.bin`;
    await store().write(short, body.subarray(0, 5));
    expect(Buffer.from(await store().readHead(short, 16))).toEqual(Buffer.from(body.subarray(0, 5)));
    expect(await read(await store().createReadStream(key, { start: 100, end: 199 }))).toEqual(Buffer.from(body.subarray(100, 200)));
    expect(await read(await store().createReadStream(key))).toEqual(Buffer.from(body));
  });

  it("uploads in parts: each part URL takes exactly its size, a cut part is sent again, completion assembles the object", async () => {
    const key = `${prefix}/parts/clip.mp4`;
    const partSize = 5 * MiB;
    const body = bytesOf(2 * partSize + 1234);
    const { partUrls } = await store().createMultipartUpload({ key, size: body.length, partSize, expiresInSeconds: 60 });
    expect(partUrls).toHaveLength(3);
    const part = (n: number) => body.subarray((n - 1) * partSize, Math.min(body.length, n * partSize));

    expect((await put(partUrls[2], part(3))).status).toBe(200);
    // Part 1 is cut off mid-transfer by the client; part 2 is sent one byte short.
    expect(await rawPut(partUrls[0], part(1), { abortAfter: 2 * MiB })).toBe("aborted");
    const short = await put(partUrls[1], part(2).subarray(1));
    // S3 signs each part's Content-Length and refuses another; local disk stores it and completion names it.
    if (name === "s3") expect(short.status).toBe(403);
    expect(await store().completeMultipartUpload({ key, size: body.length, partSize })).toEqual({ status: "incomplete", parts: [1, 2] });
    expect(await store().stat(key)).toBeNull();

    // Resume: the same URLs, only the missing parts.
    expect((await put(partUrls[0], part(1))).status).toBe(200);
    expect((await put(partUrls[1], part(2))).status).toBe(200);
    expect(await store().completeMultipartUpload({ key, size: body.length, partSize })).toEqual({ status: "completed", size: body.length });
    expect(digest(await read(await store().createReadStream(key)))).toBe(digest(body));
    expect(await store().list(`${prefix}/parts`)).toEqual([{ key, size: body.length }]);
    expect(await store().completeMultipartUpload({ key, size: body.length, partSize })).toEqual({ status: "none" });
  });

  it("aborting an upload in parts leaves nothing to complete", async () => {
    const key = `${prefix}/abort/clip.mp4`;
    const partSize = 5 * MiB;
    const body = bytesOf(partSize + 10);
    const { partUrls } = await store().createMultipartUpload({ key, size: body.length, partSize, expiresInSeconds: 60 });
    expect((await put(partUrls[0], body.subarray(0, partSize))).status).toBe(200);
    await store().abortMultipartUpload(key);
    expect(await store().completeMultipartUpload({ key, size: body.length, partSize })).toEqual({ status: "none" });
    expect(await store().list(`${prefix}/abort`)).toEqual([]);
  });

  it("lists a prefix (sizes included, nothing outside it) and deletes it, open uploads in parts too", async () => {
    const base = `${prefix}/tree`;
    await store().write(`${base}/a/one.bin`, bytesOf(1));
    await store().write(`${base}/a/two.bin`, bytesOf(2));
    await store().write(`${base}/b/three.bin`, bytesOf(3));
    await store().write(`${base}-sibling/keep.bin`, bytesOf(4));
    await store().createMultipartUpload({ key: `${base}/b/clip.mp4`, size: 10, partSize: 5 * MiB, expiresInSeconds: 60 });
    const listed = await store().list(`${base}/`);
    expect(listed.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
      { key: `${base}/a/one.bin`, size: 1 },
      { key: `${base}/a/two.bin`, size: 2 },
      { key: `${base}/b/three.bin`, size: 3 },
    ]);
    await store().delete(`${base}/a/two.bin`);
    expect((await store().list(`${base}/a`)).map((o) => o.key)).toEqual([`${base}/a/one.bin`]);
    await store().deletePrefix(`${base}/`);
    expect(await store().list(`${base}/`)).toEqual([]);
    expect(await store().completeMultipartUpload({ key: `${base}/b/clip.mp4`, size: 10, partSize: 5 * MiB })).toEqual({ status: "none" });
    expect(await store().list(`${base}-sibling`)).toEqual([{ key: `${base}-sibling/keep.bin`, size: 4 }]);
  });
});
