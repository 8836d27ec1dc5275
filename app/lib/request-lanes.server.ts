// Signed-in work waits its turn so that visitors' pages do not wait behind it (docs/decisions/061-signed-in-work-takes-turns.md).
// Each web process runs at most a few requests of each lane at once; the rest wait in arrival order. Requests in
// no lane (signed-out visitors' GETs: pages, embeds, oEmbed, downloads) never wait here.
import type { IncomingMessage, ServerResponse } from "node:http";
import { isSignedInRequest } from "./session-cookie";

export type LaneName = "uploads" | "signed-in";

/**
 * The lane a request belongs to, or null for a visitor's request:
 * - "uploads": a PUT of a file's bytes (a signed upload link): long, paced by the sender's network;
 * - "signed-in": any other request that changes something or acts for someone (a method other than GET or HEAD,
 *   an Authorization header, the site's session cookie).
 */
export function laneOf(req: Pick<IncomingMessage, "method" | "headers">): LaneName | null {
  if (req.method === "PUT") return "uploads";
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

/**
 * Middleware that starts a laned request when its lane has room and otherwise queues it; a request leaves its lane
 * when its response is done or its connection closes, and the next one waiting starts. A queued request whose client
 * goes away is dropped from the queue without running.
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
    const start = () => {
      state = "running";
      lane.running++;
      next();
    };
    const leave = () => {
      if (state === "running") {
        lane.running--;
        const following = lane.waiting.shift();
        following?.();
      } else if (state === "waiting") {
        const at = lane.waiting.indexOf(start);
        if (at >= 0) lane.waiting.splice(at, 1);
      }
      state = "done";
    };
    res.once("close", leave);
    if (lane.running < lane.limit) start();
    else lane.waiting.push(start);
  };
}
