import http, { type IncomingHttpHeaders } from "node:http";

/**
 * A request to the test server with any Host header (fetch does not let a caller set one), sent from any
 * loopback address (`from`: on Linux every 127.x.y.z is this machine, so 127.0.0.2 can play a proxy that
 * 127.0.0.1 is not). Never throws on a status; answers the body as text and, when it is JSON, parsed.
 */
export function hostRequest(
  baseUrl: string,
  path: string,
  {
    method = "GET",
    headers = {},
    body,
    token,
    from = "127.0.0.1",
  }: { method?: string; headers?: Record<string, string>; body?: unknown; token?: string; from?: string } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string; json: any }> {
  const target = new URL(baseUrl);
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path,
        method,
        localAddress: from,
        headers: {
          Host: target.host,
          ...(payload ? { "Content-Type": "application/json", "Content-Length": String(payload.length) } : {}),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: any = null;
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}
