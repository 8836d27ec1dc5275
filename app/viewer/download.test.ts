import { afterEach, describe, expect, it, vi } from "vitest";
import { xorInPlace } from "../lib/xor";
import { downloadModel, EMPTY_OR_CORRUPTED, fetchPublicFile, startEarlyModelDownload, takeEarlyModelDownload } from "./download";

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** fetch answering with `responses` in turn (the last one again when they run out). */
function mockFetch(...responses: Response[]) {
  let next = 0;
  const fetchMock = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>(async () => responses[Math.min(next++, responses.length - 1)]!);
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("downloadModel", () => {
  it("sends the bearer token and reports progress against Content-Length", async () => {
    const fetchMock = mockFetch(
      new Response(streamOf([new Uint8Array([1, 2]), new Uint8Array([3, 4, 5])]), {
        headers: { "Content-Length": "5" },
      }),
    );
    const progress: Array<[number, number | null]> = [];
    const bytes = await downloadModel({
      url: "/api/items/1/file",
      token: "abc",
      onProgress: (loaded, total) => progress.push([loaded, total]),
    });
    expect([...new Uint8Array(bytes)]).toEqual([1, 2, 3, 4, 5]);
    expect(progress).toEqual([
      [0, 5],
      [2, 5],
      [5, 5],
    ]);
    const init = fetchMock.mock.calls[0][1] as RequestInit;
    expect((init.headers as Record<string, string>).Authorization).toBe("Bearer abc");
  });

  it("omits the Authorization header without a token", async () => {
    const fetchMock = mockFetch(new Response(streamOf([new Uint8Array([9])])));
    await downloadModel({ url: "/f" });
    const init = fetchMock.mock.calls[0][1] as RequestInit;
    expect(init.headers).toEqual({});
  });

  it("XOR-decodes across chunk boundaries", async () => {
    const key = new TextEncoder().encode("k3y");
    const plain = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 256);
    const encoded = xorInPlace(plain.slice(), key, 0);
    // Uneven chunk sizes so the key position must carry over between chunks.
    const chunks = [encoded.slice(0, 1), encoded.slice(1, 5), encoded.slice(5, 502), encoded.slice(502)];
    mockFetch(new Response(streamOf(chunks)));
    const bytes = await downloadModel({ url: "/f", xorKey: key });
    expect(new Uint8Array(bytes)).toEqual(plain);
  });

  it("handles a missing or wrong Content-Length", async () => {
    mockFetch(new Response(streamOf([new Uint8Array([1, 2, 3]), new Uint8Array([4])]), { headers: { "Content-Length": "2" } }));
    const bytes = await downloadModel({ url: "/f" });
    expect([...new Uint8Array(bytes)]).toEqual([1, 2, 3, 4]);

    const totals: Array<number | null> = [];
    mockFetch(new Response(streamOf([new Uint8Array([1])])));
    await downloadModel({ url: "/f", onProgress: (_loaded, total) => totals.push(total) });
    expect(totals.every((total) => total === null)).toBe(true);
  });

  it("returns only the bytes received when the body is shorter than announced", async () => {
    mockFetch(new Response(streamOf([new Uint8Array([1, 2])]), { headers: { "Content-Length": "10" } }));
    const bytes = await downloadModel({ url: "/f" });
    expect(bytes.byteLength).toBe(2);
  });

  it("reports HTTP errors with the status and body", async () => {
    mockFetch(new Response("Forbidden item", { status: 403 }));
    await expect(downloadModel({ url: "/f" })).rejects.toThrow("Failed to download file: 403 - Forbidden item");
  });

  it("rejects a missing body", async () => {
    mockFetch(new Response(null, { status: 200 }));
    await expect(downloadModel({ url: "/f" })).rejects.toThrow("Response body is null");
  });

  it("rejects an empty body", async () => {
    mockFetch(new Response(streamOf([]), { status: 200 }));
    await expect(downloadModel({ url: "/f" })).rejects.toThrow(EMPTY_OR_CORRUPTED);
    expect(EMPTY_OR_CORRUPTED).toBe("Downloaded file is empty or corrupted");
  });

  it("passes the abort signal to fetch", async () => {
    const fetchMock = mockFetch(new Response(streamOf([new Uint8Array([1])])));
    const controller = new AbortController();
    await downloadModel({ url: "/f", signal: controller.signal });
    expect((fetchMock.mock.calls[0][1] as RequestInit).signal).toBe(controller.signal);
  });
});

describe("fetchPublicFile", () => {
  it("returns the bytes", async () => {
    mockFetch(new Response(new Uint8Array([7, 8])));
    expect([...new Uint8Array(await fetchPublicFile("/sample.glb"))]).toEqual([7, 8]);
  });
  it("reports the status when not ok", async () => {
    mockFetch(new Response("nope", { status: 404 }));
    await expect(fetchPublicFile("/missing.glb")).rejects.toThrow("Failed to download from URL: 404");
  });
});

describe("startEarlyModelDownload", () => {
  const key = new TextEncoder().encode("k3y");

  it("is taken once, by the same URL written either way and the same key, decoded with that key", async () => {
    vi.stubGlobal("document", { baseURI: "https://app.example/embed/1" });
    const plain = new Uint8Array([7, 8, 9, 10]);
    const encoded = xorInPlace(plain.slice(), key, 0);
    const fetchMock = mockFetch(new Response(streamOf([encoded]), { headers: { "Content-Length": "4" } }));
    const early = startEarlyModelDownload("https://app.example/v1/item/1/file", key);
    expect(takeEarlyModelDownload("/v1/item/2/file", { xorKey: key })).toBeNull();
    expect(takeEarlyModelDownload("/v1/item/1/file", { xorKey: null })).toBeNull();
    expect(takeEarlyModelDownload("/v1/item/1/file", { xorKey: new TextEncoder().encode("k3z") })).toBeNull();
    // A viewer that needs a token downloads on its own: the early request carried none.
    expect(takeEarlyModelDownload("/v1/item/1/file", { xorKey: key, token: "t" })).toBeNull();
    const taken = takeEarlyModelDownload("/v1/item/1/file", { xorKey: new TextEncoder().encode("k3y") });
    expect(taken?.download).toBe(early);
    expect(takeEarlyModelDownload("/v1/item/1/file", { xorKey: key })).toBeNull();
    expect([...new Uint8Array(await taken!.download.done)]).toEqual([...plain]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(new Headers(fetchMock.mock.calls[0]![1]?.headers).get("Authorization")).toBeNull();
  });

  it("keeps the model's and its coarse level's downloads apart, each taken by its own URL", async () => {
    vi.stubGlobal("document", { baseURI: "https://app.example/embed/1" });
    mockFetch(
      new Response(streamOf([xorInPlace(new Uint8Array([1, 2]), key, 0)]), { headers: { "Content-Length": "2" } }),
      new Response(streamOf([xorInPlace(new Uint8Array([3, 4, 5]), key, 0)]), { headers: { "Content-Length": "3" } }),
    );
    const coarse = startEarlyModelDownload("/v1/item/1/file?variant=coarse", key);
    const whole = startEarlyModelDownload("/v1/item/1/file", key);
    expect(takeEarlyModelDownload("/v1/item/1/file", { xorKey: key })?.download).toBe(whole);
    expect(takeEarlyModelDownload("https://app.example/v1/item/1/file?variant=coarse", { xorKey: key })?.download).toBe(coarse);
    expect([...new Uint8Array(await coarse.done)]).toEqual([1, 2]);
    expect([...new Uint8Array(await whole.done)]).toEqual([3, 4, 5]);
  });

  it("without a key is taken by a viewer with none, and cancelled through the taker", async () => {
    vi.stubGlobal("document", { baseURI: "https://app.example/embed/1" });
    const fetchMock = mockFetch(new Response(streamOf([new Uint8Array([7, 8])]), { headers: { "Content-Length": "2" } }));
    startEarlyModelDownload("/v1/item/1/file", new Uint8Array(0));
    const taken = takeEarlyModelDownload("/v1/item/1/file", { xorKey: null });
    expect([...new Uint8Array(await taken!.download.done)]).toEqual([7, 8]);
    const signal = fetchMock.mock.calls[0]![1]?.signal;
    taken!.cancel();
    expect(signal?.aborted).toBe(true);
  });
});
