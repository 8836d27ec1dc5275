import { AsyncLocalStorage } from "node:async_hooks";
import { env } from "~/env.server";

/**
 * The origin links are built on while the current API request is handled: the one server.ts worked out for
 * it by the one rule (app/lib/link-origin.server.ts, docs/decisions/039) and handed over in Remix's load
 * context. The local-disk storage builds its signed URLs on it, so an upload works from whatever allowed
 * origin served the page (127.0.0.1, localhost), not only at APP_URL (issue 17 item 2).
 */
const current = new AsyncLocalStorage<string>();

export function withRequestOrigin<T>(origin: string | undefined, run: () => Promise<T>): Promise<T> {
  return origin ? current.run(origin, run) : run();
}

/** The current request's link origin, or undefined outside a request (workers, scripts): callers use APP_URL. */
export function requestOrigin(): string | undefined {
  return current.getStore();
}

/**
 * The origin share links and embed codes are built on: the current request's link origin, else APP_URL's
 * (docs/decisions/047). A site opened at 127.0.0.1 in the local profile hands out links that open there.
 */
export function shareOrigin(): string {
  return requestOrigin() ?? new URL(env().APP_URL).origin;
}
