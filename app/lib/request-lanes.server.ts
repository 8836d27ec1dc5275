// Signed-in work waits its turn so that visitors' pages do not wait behind it (docs/decisions/061-signed-in-work-takes-turns.md).
// Each web process runs at most a few requests of each lane at once; the rest wait in arrival order. Requests in
// no lane (signed-out visitors' GETs: pages, embeds, oEmbed, downloads) never wait here.
import type { IncomingMessage, ServerResponse } from "node:http";
import { isSignedInRequest } from "./session-cookie";
import { SIGNED_LINKS_PATH } from "./signed-links";

export type LaneName = "uploads" | "signed-in";

/**
 * The lane a request belongs to, or null for a visitor's request:
 * - "uploads": a PUT of a file's bytes to a signed upload link: long, paced by the sender's network;
 * - "signed-in": any other request that changes something or acts for someone (a method other than GET or HEAD,
 *   an Authorization header, the site's session cookie).
 */
export function laneOf(req: Pick<IncomingMessage, "method" | "headers" | "url">): LaneName | null {
  if (req.method === "PUT" && req.url?.startsWith(SIGNED_LINKS_PATH)) return "uploads";
  if (req.method !== "GET" && req.method !== "HEAD") return "signed-in";
  return isSignedInRequest(req.headers) ? "signed-in" : null;
}

export interface LaneLimits {
  uploads: number;
  "signed-in": number;
}

export type RequestLanes = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

interface Lane {
  limit: number;
  running: number;
  waiting: Array<() => void>;
}

/** Answers that are pages or data hold their place until sent; any other answer is a file's bytes. */
const MADE_ANSWERS = /^(text\/|application\/json)/;

/** The Content-Type an answer goes out with: given to `writeHead` (an object or a flat list) or set before it. */
function contentTypeOf(res: ServerResponse, writeHeadArgs: unknown[]): string {
  const given = writeHeadArgs.find((arg) => typeof arg === "object" && arg !== null);
  if (Array.isArray(given)) {
    const flat = given.flat() as unknown[];
    for (let i = 0; i + 1 < flat.length; i += 2) if (String(flat[i]).toLowerCase() === "content-type") return String(flat[i + 1]);
  } else if (given) {
    for (const [name, value] of Object.entries(given)) if (name.toLowerCase() === "content-type") return String(value);
  }
  return String(res.getHeader("content-type") ?? "");
}

/**
 * Middleware that starts a laned request when its lane has room and otherwise queues it. A request leaves its lane
 * when its answer is finished or its connection closes, and gives its place to the next one waiting; an answer that
 * sends a file's bytes (a signed-in person's download) leaves as its headers go out, so that a slow download holds
 * no place. A queued request whose client goes away is dropped without running.
 */
export function requestLanes(limits: LaneLimits): RequestLanes {
  const lanes: Record<LaneName, Lane> = {
    uploads: { limit: limits.uploads, running: 0, waiting: [] },
    "signed-in": { limit: limits["signed-in"], running: 0, waiting: [] },
  };
  return (req, res, next) => {
    const name = laneOf(req);
    if (!name) return next();
    const lane = lanes[name];
    let state: "waiting" | "running" | "done" = "waiting";
    /** The place held is handed to the next request waiting (on the next turn of the event loop), or freed. */
    const pass = () => {
      const following = lane.waiting.shift();
      if (following) setImmediate(following);
      else lane.running--;
    };
    /** Called with a place held for this request; one whose client went away meanwhile passes it on. */
    const begin = () => {
      if (state !== "waiting") return pass();
      state = "running";
      next();
    };
    const leave = () => {
      if (state === "running") pass();
      else if (state === "waiting") {
        const at = lane.waiting.indexOf(begin);
        if (at >= 0) lane.waiting.splice(at, 1);
      }
      state = "done";
    };
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
      const type = contentTypeOf(this, args);
      if (type && !MADE_ANSWERS.test(type)) leave();
      return writeHead.apply(this, args);
    } as typeof writeHead;
    res.once("close", leave);
    if (lane.running < lane.limit) {
      lane.running++;
      begin();
    } else lane.waiting.push(begin);
  };
}
