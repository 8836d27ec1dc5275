// Requests a web process makes of itself, through its whole stack, as a visitor on a given address would: its
// warm-up before it serves (decision 068) and the refresh of a kept page that expired, rendered for no one while
// visitors get the expired copy (decision 069). They arrive on a loopback listener of the process's own and carry
// a secret only this process knows: no other program on the machine can pass for one.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** The header that carries the secret, and the one that names the link origin the page is rendered for. */
const SECRET_HEADER = "x-scanroom-self";
const ORIGIN_HEADER = "x-scanroom-self-origin";
/** On a request of its own that must render, not be given a kept copy (a refresh). */
const RENDER_HEADER = "x-scanroom-self-render";
const secret = randomBytes(32).toString("base64url");

/** The connections of self-request listeners: only this process makes them. */
const selfConnections = new WeakSet<object>();

/**
 * The link origin a request of this process's own asked to be rendered for (the site's address a visitor would
 * have used); null for every other request, whatever it sends.
 */
export function selfRequestOrigin(req: http.IncomingMessage): string | null {
  if (!selfConnections.has(req.socket) || req.headers[SECRET_HEADER] !== secret) return null;
  const origin = req.headers[ORIGIN_HEADER];
  return typeof origin === "string" ? origin : null;
}

/**
 * Whether a request is nobody's view of the page it asks for: one of this process's own (its warm-up, a kept page's
 * refresh). The one rule for both places a view is counted: a page's loader and a kept copy given out.
 */
export const countsNoView = (req: http.IncomingMessage): boolean => selfRequestOrigin(req) !== null;

/** Whether a request is one of this process's own that asks for a render, not a kept copy (`SelfGet.render`). */
export const asksToRender = (req: http.IncomingMessage): boolean => selfRequestOrigin(req) !== null && req.headers[RENDER_HEADER] === "1";

export interface SelfGet {
  /** The path and query, as a visitor asks for it. */
  path: string;
  /** The origin of the site's address it is asked on (`https://scanroom.example`): its Host, and its pages' links. */
  linkOrigin: string;
  /** Kept and returned (a JSON list); otherwise the answer is taken gzipped, as browsers take it, and thrown away. */
  keepBody?: boolean;
  /** Rendered, never a kept copy (`asksToRender`): a kept page's refresh. */
  render?: boolean;
  /** Given up (status 0) at this time (ms since the epoch). */
  deadline?: number;
}

export interface SelfRequests {
  /** The loopback port it listens on. */
  port: number;
  get(request: SelfGet): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

/**
 * Opens a loopback listener that serves with `app` only the requests made through it, at most `atOnce` at a time
 * (more wait their turn). The listener does not keep the process alive.
 */
export async function openSelfRequests(app: http.RequestListener, { atOnce }: { atOnce: number }): Promise<SelfRequests> {
  const server = http.createServer(app).on("connection", (socket: Socket) => {
    selfConnections.add(socket);
    socket.unref();
  });
  // `exclusive`: in a cluster worker, a port of this process alone, not one shared through the supervisor.
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen({ port: 0, host: "127.0.0.1", exclusive: true }, resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: atOnce });
  const get = ({ path, linkOrigin, keepBody = false, render = false, deadline }: SelfGet) =>
    new Promise<{ status: number; body: string }>((resolve) => {
      const headers = {
        host: new URL(linkOrigin).host,
        accept: keepBody ? "application/json" : "text/html",
        "accept-encoding": keepBody ? "identity" : "gzip, deflate, br",
        [SECRET_HEADER]: secret,
        [ORIGIN_HEADER]: linkOrigin,
        ...(render ? { [RENDER_HEADER]: "1" } : {}),
      };
      const request = http.get({ host: "127.0.0.1", port, path, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => keepBody && chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on("error", () => resolve({ status: 0, body: "" }));
      });
      request.on("socket", (socket) => socket.unref());
      if (deadline !== undefined) request.setTimeout(Math.max(1, deadline - Date.now()), () => request.destroy());
      request.on("error", () => resolve({ status: 0, body: "" }));
    });
  const close = async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { port, get, close };
}
