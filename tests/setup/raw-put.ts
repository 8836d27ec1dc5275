import http from "node:http";

/**
 * A PUT with full control over the body (for upload tests): sent with a Content-Length or chunked,
 * optionally cut off after `abortAfter` bytes (the client goes away mid-body). Resolves to the
 * status and body the client received, or "aborted" when it cut the request off itself.
 */
export function rawPut(
  url: string,
  body: Uint8Array,
  options: { chunked?: boolean; abortAfter?: number } = {},
): Promise<{ status: number; text: string } | "aborted" | "reset"> {
  return rawRequest("PUT", url, body, options);
}

/** Any method, with extra headers (e.g. a JSON POST sent chunked). */
export function rawRequest(
  method: string,
  url: string,
  body: Uint8Array,
  { chunked = false, abortAfter, headers = {} }: { chunked?: boolean; abortAfter?: number; headers?: Record<string, string> } = {},
): Promise<{ status: number; text: string } | "aborted" | "reset"> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const request = http.request(target, {
      method,
      headers: { ...headers, ...(chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(body.length) }) },
    });
    let settled = false;
    const settle = (value: { status: number; text: string } | "aborted" | "reset") => {
      if (!settled) {
        settled = true;
        resolve(value);
      }
    };
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => settle({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", () => settle("reset"));
    });
    request.on("error", () => settle(abortAfter !== undefined ? "aborted" : "reset"));
    const slice = 64 * 1024;
    let sent = 0;
    const sendMore = () => {
      while (sent < body.length) {
        if (abortAfter !== undefined && sent >= abortAfter) {
          request.destroy();
          settle("aborted");
          return;
        }
        const chunk = body.subarray(sent, Math.min(body.length, sent + slice));
        sent += chunk.length;
        if (!request.write(chunk)) {
          request.once("drain", sendMore);
          return;
        }
      }
      request.end();
    };
    sendMore();
  });
}
