import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LocalDiskStorage } from "./local-disk.server";

const root = mkdtempSync(path.join(os.tmpdir(), "scanroom-local-disk-"));
const store = new LocalDiskStorage(root, "test-secret", "http://127.0.0.1:1");
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("LocalDiskStorage uploads in parts", () => {
  const key = "items/abc/video/clip.mp4";
  const bytes = Uint8Array.from({ length: 25 }, (_, i) => i);

  it("signs one PUT URL per part, each limited to that part's size", async () => {
    const { partUrls } = await store.createMultipartUpload({ key, size: 25, partSize: 10, expiresInSeconds: 60 });
    expect(partUrls).toHaveLength(3);
    expect(partUrls.map((u) => new URL(u).searchParams.get("max"))).toEqual(["10", "10", "5"]);
    expect(new URL(partUrls[0]).pathname).toBe(`/storage/${key}.parts/00001`);
  });

  it("reports missing parts, then assembles the object in order and removes the parts", async () => {
    await store.write(`${key}.parts/00003`, bytes.subarray(20, 25));
    await store.write(`${key}.parts/00001`, bytes.subarray(0, 10));
    expect(await store.completeMultipartUpload({ key, size: 25, partSize: 10 })).toEqual({ status: "incomplete", parts: [2] });
    await store.write(`${key}.parts/00002`, bytes.subarray(10, 19)); // one byte short
    expect(await store.completeMultipartUpload({ key, size: 25, partSize: 10 })).toEqual({ status: "incomplete", parts: [2] });
    await store.write(`${key}.parts/00002`, bytes.subarray(10, 20));
    expect(await store.completeMultipartUpload({ key, size: 25, partSize: 10 })).toEqual({ status: "completed", size: 25 });
    expect(Buffer.from(await store.readHead(key, 100))).toEqual(Buffer.from(bytes));
    expect(await store.list("items/abc")).toEqual([{ key, size: 25 }]);
    expect(await store.completeMultipartUpload({ key, size: 25, partSize: 10 })).toEqual({ status: "none" });
  });
});
