import { describe, expect, it } from "vitest";
import { ApiError, type ApiClient, type ApiRequest } from "../lib/api-client";
import {
  detailsPatch,
  runPool,
  TransferError,
  uploadImageSetScan,
  uploadInParts,
  uploadVideoScan,
  withRetry,
  type PutBlob,
  type RetryPolicy,
  type UploadDetails,
} from "./upload-flows";

const noWait: RetryPolicy = { attempts: 4, baseDelayMs: 1, maxDelayMs: 1, sleep: async () => {}, waitUntilOnline: async () => {} };

/** A storage endpoint in memory: records every PUT attempt and keeps the bytes of successful ones. */
function fakeStorage(fail: (url: string, attempt: number) => TransferError | null = () => null) {
  const stored = new Map<string, Uint8Array>();
  const attempts = new Map<string, number>();
  const put: PutBlob = async (url, body, onProgress) => {
    const attempt = (attempts.get(url) ?? 0) + 1;
    attempts.set(url, attempt);
    const bytes = new Uint8Array(await body.arrayBuffer());
    onProgress(Math.floor(bytes.length / 2));
    const error = fail(url, attempt);
    if (error) throw error;
    onProgress(bytes.length);
    stored.set(url, bytes);
  };
  return { put, stored, attempts };
}

/** The /v1 API in memory, enough for the flows. */
function fakeApi(overrides: Partial<Record<string, (request: ApiRequest) => unknown>> = {}) {
  const calls: Array<{ path: string; request: ApiRequest }> = [];
  const api = (async (path: string, request: ApiRequest = {}) => {
    calls.push({ path, request });
    const key = `${request.method ?? "GET"} ${path.replace(/[0-9a-f-]{36}/, "{id}")}`;
    const override = overrides[key];
    if (override) return override(request);
    switch (key) {
      case "POST /item":
        return { item_id: "00000000-0000-4000-8000-000000000001" };
      case "GET /upload/image/{id}":
        return { path: "items/x/images/", url: "/v1/upload/image/x/file" };
      case "POST /upload/image/{id}/files":
        return {
          files: (request.body as { filenames: string[] }).filenames.map((filename) => ({ filename, path: `items/x/images/${filename}`, url: `put://${filename}` })),
        };
      case "GET /upload/video/{id}":
        return { path: "items/x/video/v.mp4", url: "put://whole", part_size: 4, part_urls: ["put://p1", "put://p2", "put://p3"] };
      default:
        return { ok: true };
    }
  }) as ApiClient;
  return { api, calls };
}

const file = (name: string, bytes: number[] | string) =>
  new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name, { type: "application/octet-stream" });

describe("uploadInParts", () => {
  it("resumes after a dropped connection by sending only the part that failed", async () => {
    const video = file("clip.mp4", Array.from({ length: 10 }, (_, i) => i));
    const storage = fakeStorage((url, attempt) => (url === "put://p2" && attempt === 1 ? new TransferError("The connection was lost during the upload.", null) : null));
    const progress: number[] = [];
    await uploadInParts({
      file: video,
      partUrls: ["put://p1", "put://p2", "put://p3"],
      partSize: 4,
      put: storage.put,
      retry: noWait,
      onProgress: (loaded) => progress.push(loaded),
    });
    expect(Object.fromEntries(storage.attempts)).toEqual({ "put://p1": 1, "put://p2": 2, "put://p3": 1 });
    expect([...storage.stored.get("put://p1")!, ...storage.stored.get("put://p2")!, ...storage.stored.get("put://p3")!]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(progress.at(-1)).toBe(10);
    expect(Math.max(...progress)).toBe(10);
  });

  it("refuses part links that do not match the file", async () => {
    await expect(uploadInParts({ file: file("a.mp4", [1, 2, 3, 4, 5]), partUrls: ["put://p1"], partSize: 4, put: fakeStorage().put })).rejects.toThrow(
      "Expected 2 part links, got 1.",
    );
  });
});

describe("withRetry and runPool", () => {
  it("retries network and server errors with growing delays, not refusals", async () => {
    const delays: number[] = [];
    const policy = { ...noWait, baseDelayMs: 100, maxDelayMs: 250, attempts: 4, sleep: async (ms: number) => void delays.push(ms) };
    let calls = 0;
    await expect(withRetry(async () => { calls++; throw new TransferError("busy", 503); }, policy)).rejects.toThrow("busy");
    expect(calls).toBe(4);
    expect(delays).toHaveLength(3);
    expect(delays[0]).toBeGreaterThanOrEqual(75);
    expect(delays[0]).toBeLessThanOrEqual(125);
    expect(delays[2]).toBeLessThanOrEqual(250 * 1.25);

    calls = 0;
    await expect(withRetry(async () => { calls++; throw new TransferError("The file is larger than the upload limit.", 413); }, policy)).rejects.toThrow("larger");
    expect(calls).toBe(1);
    calls = 0;
    await expect(withRetry(async () => { calls++; throw new ApiError(402, "quota_exceeded", "no"); }, policy)).rejects.toThrow("no");
    expect(calls).toBe(1);
    expect(await withRetry(async (attempt) => { if (attempt < 3) throw new TypeError("Failed to fetch"); return attempt; }, policy)).toBe(3);
  });

  it("keeps at most `concurrency` tasks in flight and stops after a failure", async () => {
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    await runPool(Array.from({ length: 12 }, (_, i) => i), 4, async (i) => {
      started.push(i);
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight--;
    });
    expect(most).toBe(4);
    expect(started).toHaveLength(12);

    const attempted: number[] = [];
    await expect(
      runPool(Array.from({ length: 20 }, (_, i) => i), 2, async (i) => {
        attempted.push(i);
        if (i === 3) throw new Error("boom");
        await new Promise((resolve) => setTimeout(resolve, 1));
      }),
    ).rejects.toThrow("boom");
    expect(attempted.length).toBeLessThan(20);
  });
});

describe("the image-set flow", () => {
  it("creates '{first file name} (Image Set)', uploads image-001… keeping extensions, then starts the scan", async () => {
    const { api, calls } = fakeApi();
    const storage = fakeStorage((url, attempt) => (url === "put://image-002.png" && attempt === 1 ? new TransferError("reset", null) : null));
    const files = [file("IMG_1.JPG", "a"), file("IMG_2.png", "b"), file("IMG_3.jpeg", "c")];
    const itemId = await uploadImageSetScan({ api, files, put: storage.put, retry: noWait });
    expect(itemId).toBe("00000000-0000-4000-8000-000000000001");
    expect(calls[0]).toEqual({ path: "/item", request: { method: "POST", body: { model_type: "ply", upload_type: "image", name: "IMG_1.JPG (Image Set)" } } });
    expect([...storage.stored.keys()].sort()).toEqual(["put://image-001.jpg", "put://image-002.png", "put://image-003.jpeg"]);
    expect(storage.attempts.get("put://image-002.png")).toBe(2);
    expect(calls.at(-1)).toEqual({ path: `/scan/image/${itemId}`, request: { method: "POST", body: { input_bucket_path: "items/x/images/" } } });
  });

  it("asks for the links in batches of at most 100 names, each name once", async () => {
    const { api, calls } = fakeApi();
    const storage = fakeStorage();
    const files = Array.from({ length: 250 }, (_, i) => file(`P${i}.jpg`, "x"));
    await uploadImageSetScan({ api, files, put: storage.put, retry: noWait });
    const batches = calls.filter((c) => c.path.endsWith("/files")).map((c) => (c.request.body as { filenames: string[] }).filenames);
    expect(batches.map((names) => names.length)).toEqual([100, 100, 50]);
    expect(batches.flat()).toEqual(files.map((_, i) => `image-${String(i + 1).padStart(3, "0")}.jpg`));
    expect(storage.stored.size).toBe(250);
    expect(calls.some((c) => c.path.endsWith("/file"))).toBe(false);
  });

  it("deletes the created item when an upload is refused, and re-throws", async () => {
    const { api, calls } = fakeApi();
    const storage = fakeStorage((url) => (url === "put://image-002.jpg" ? new TransferError("This link is not valid.", 403) : null));
    await expect(uploadImageSetScan({ api, files: [file("a.jpg", "a"), file("b.jpg", "b")], put: storage.put, retry: noWait })).rejects.toThrow(
      "This link is not valid.",
    );
    expect(calls.at(-1)).toEqual({ path: "/item/00000000-0000-4000-8000-000000000001", request: { method: "DELETE" } });
    expect(calls.some((c) => c.path.startsWith("/scan/"))).toBe(false);
  });
});

describe("the video flow", () => {
  it("uploads in parts and asks for the first 180 s of a longer video", async () => {
    const { api, calls } = fakeApi();
    const storage = fakeStorage();
    await uploadVideoScan({ api, file: file("Beach walk.mp4", Array.from({ length: 10 }, (_, i) => i)), metadata: { duration: 200.4, width: 1080, height: 1920 }, put: storage.put, retry: noWait });
    expect(calls[0].request.body).toEqual({ model_type: "ply", upload_type: "video", name: "Beach walk" });
    expect(calls[1].request.query).toEqual({ size: 10, filename: "Beach walk.mp4" });
    expect([...storage.stored.keys()].sort()).toEqual(["put://p1", "put://p2", "put://p3"]);
    expect(calls.at(-1)!.request.body).toEqual({ duration: 180, width: 1080, height: 1920, input_bucket_path: "items/x/video/v.mp4" });
  });

  it("deletes the created item when the scan is refused", async () => {
    const { api, calls } = fakeApi({
      "POST /scan/video/{id}": () => {
        throw new ApiError(402, "quota_exceeded", "You have used all your available scans");
      },
    });
    await expect(
      uploadVideoScan({ api, file: file("a.mp4", Array.from({ length: 10 }, (_, i) => i)), metadata: { duration: 3, width: 1920, height: 1080 }, put: fakeStorage().put, retry: noWait }),
    ).rejects.toThrow("You have used all your available scans");
    expect(calls.at(-1)!.request).toEqual({ method: "DELETE" });
  });
});

describe("the dialog's details (issue 35 item 3)", () => {
  it("applies what was typed while the photos uploaded, before the scan starts", async () => {
    const { api, calls } = fakeApi();
    let details: UploadDetails = { name: "Oak chair" };
    const storage = fakeStorage();
    const put: PutBlob = async (url, body, onProgress) => {
      details = { name: "Oak chair, restored", description: "Grandma's", tags: ["chair", "oak"], license: "cc_by", category_id: null };
      await storage.put(url, body, onProgress);
    };
    const itemId = await uploadImageSetScan({ api, files: [file("a.jpg", "a"), file("b.jpg", "b")], put, retry: noWait, details: () => details });
    const patch = calls.findIndex((c) => c.request.method === "PATCH");
    expect(calls[patch]).toEqual({
      path: `/item/${itemId}`,
      request: { method: "PATCH", body: { name: "Oak chair, restored", description: "Grandma's", tags: ["chair", "oak"], license: "cc_by" } },
    });
    expect(calls.findIndex((c) => c.path.startsWith("/scan/image/"))).toBeGreaterThan(patch);
  });

  it("sends nothing for a scan whose details were left empty, and keeps SPEC's name", async () => {
    const { api, calls } = fakeApi();
    await uploadVideoScan({ api, file: file("Beach walk.mp4", "0123456789"), metadata: { duration: 3, width: 1920, height: 1080 }, put: fakeStorage().put, retry: noWait, details: () => ({ name: "  " }) });
    expect(calls.some((c) => c.request.method === "PATCH")).toBe(false);
    expect(calls[0].request.body).toMatchObject({ name: "Beach walk" });
  });

  it("names a model file after the file unless the creator named it", () => {
    expect(detailsPatch(undefined, "chair")).toEqual({ name: "chair" });
    expect(detailsPatch({ name: " Chair ", tags: [], description: " " }, "chair")).toEqual({ name: "Chair" });
    expect(detailsPatch({ category_id: "00000000-0000-4000-8000-000000000009" })).toEqual({ category_id: "00000000-0000-4000-8000-000000000009" });
    expect(detailsPatch({})).toBeNull();
  });
});
