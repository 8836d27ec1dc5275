import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The origin (scheme, host, port) the current API request was addressed to, as the browser or the
 * proxy in front of us named it (Express' `trust proxy` reads X-Forwarded-Proto/Host). The local-disk
 * storage builds its signed URLs on it, so an upload works from whatever origin served the page
 * (127.0.0.1, a LAN address, a proxy), not only at APP_URL (issue 17 item 2).
 *
 * Why this is safe: a browser cannot set Host or X-Forwarded-* itself, and the URL goes back only
 * to the client that sent the request (API answers are private); a client that forges its own Host
 * only sends its own upload elsewhere. The signature covers the path, not the origin.
 */
const current = new AsyncLocalStorage<string>();

export function withRequestOrigin<T>(request: Request, run: () => Promise<T>): Promise<T> {
  let origin: string | undefined;
  try {
    const url = new URL(request.url);
    if (url.protocol === "http:" || url.protocol === "https:") origin = url.origin;
  } catch {
    origin = undefined;
  }
  return origin ? current.run(origin, run) : run();
}

/** The current request's origin, or undefined outside a request (workers, scripts). */
export function requestOrigin(): string | undefined {
  return current.getStore();
}
