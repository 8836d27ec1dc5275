/**
 * What the developer tools show about one request, read from a browser performance entry. The server
 * names every response in its Server-Timing header (server.ts): `app;dur=<ms>` for its own time and
 * `request;desc="<id>"` for the request id, which the browser exposes as entry.serverTiming.
 */
export interface PerformanceEntryLike {
  name: string;
  entryType: string;
  startTime: number;
  duration: number;
  serverTiming?: ReadonlyArray<{ name: string; duration: number; description: string }>;
}

export interface RequestTiming {
  kind: "page" | "data" | "api";
  path: string;
  requestId: string | null;
  serverMs: number | null;
  totalMs: number;
  startTime: number;
}

/** The entry as a request of this site (a page, a page's data, or an API call); null for anything else. */
export function readRequestTiming(entry: PerformanceEntryLike, origin: string): RequestTiming | null {
  let url: URL;
  try {
    url = new URL(entry.name);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  let kind: RequestTiming["kind"];
  if (entry.entryType === "navigation") kind = "page";
  else if (url.searchParams.has("_data")) kind = "data";
  else if (url.pathname.startsWith("/v1/")) kind = "api";
  else return null;
  const timing = entry.serverTiming ?? [];
  const app = timing.find((t) => t.name === "app");
  const request = timing.find((t) => t.name === "request");
  return {
    kind,
    path: `${url.pathname}${url.search}`,
    requestId: request?.description || null,
    serverMs: app ? app.duration : null,
    totalMs: Math.round(entry.duration * 10) / 10,
    startTime: entry.startTime,
  };
}
