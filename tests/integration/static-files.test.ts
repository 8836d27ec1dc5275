import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../setup/test-server";

// Issue 20: the client build's scripts, styles and WASM go out as the brotli or gzip copies the build made
// (scripts/precompress-build.mjs), chosen by the browser's Accept-Encoding; the server compresses nothing
// of them per request.

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request whose body is read as sent (fetch would decode it). */
function raw(path: string, { acceptEncoding, method = "GET" }: { acceptEncoding?: string; method?: string } = {}) {
  const { hostname, port } = new URL(server.url);
  return new Promise<RawResponse>((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { "Accept-Encoding": acceptEncoding };
    const req = request({ hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The site's own entry script and stylesheet, as its home page names them. */
async function pageAssets() {
  const html = (await raw("/")).body.toString("utf8");
  const script = html.match(/\/assets\/entry\.client-[^"]+\.js/)?.[0];
  const stylesheet = html.match(/\/assets\/[^"]+\.css/)?.[0];
  expect(script, "the home page names its entry script").toBeDefined();
  expect(stylesheet, "the home page names a stylesheet").toBeDefined();
  return [script!, stylesheet!];
}

describe("the client build's files", () => {
  it("go out as brotli to a browser that accepts it, the same bytes once decoded", async () => {
    for (const path of await pageAssets()) {
      const plain = await raw(path);
      const br = await raw(path, { acceptEncoding: "gzip, deflate, br, zstd" });
      expect(plain.status).toBe(200);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(br.status).toBe(200);
      expect(br.headers["content-encoding"]).toBe("br");
      expect(String(br.headers["content-type"]).toLowerCase()).toBe(String(plain.headers["content-type"]).toLowerCase());
      expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(br.headers.vary).toMatch(/Accept-Encoding/i);
      expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
      expect(Number(br.headers["content-length"])).toBe(br.body.length);
      expect(br.body.length).toBeLessThan(plain.body.length);
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    }
  });

  it("go out as gzip where brotli is not accepted, and as they are where neither is", async () => {
    const [script] = await pageAssets();
    const plain = await raw(script);
    const gzip = await raw(script, { acceptEncoding: "gzip, deflate" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    const refused = await raw(script, { acceptEncoding: "br;q=0, gzip;q=0" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.body.equals(plain.body)).toBe(true);
  });

  it("answers HEAD with the encoded length and no body", async () => {
    const [script] = await pageAssets();
    const br = await raw(script, { acceptEncoding: "br" });
    const head = await raw(script, { acceptEncoding: "br", method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(Number(head.headers["content-length"])).toBe(br.body.length);
    expect(head.body.length).toBe(0);
  });

  it("include the viewer's decoders outside /assets, cached for an hour", async () => {
    const path = "/viewer-libs/draco/draco_decoder.wasm";
    const plain = await raw(path);
    const br = await raw(path, { acceptEncoding: "br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toBe("application/wasm");
    expect(br.headers["cache-control"]).toBe("public, max-age=3600");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  });
});
