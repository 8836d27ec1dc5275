// With several web processes, the supervisor accepts every connection itself, reads the head of its first request,
// and hands the socket, with the bytes it read, to a web process of the kind that request calls for: visitors' or
// signed-in work, which runs at a lower CPU priority (docs/decisions/064-signed-in-work-in-processes-of-its-own.md).
// This module is both sides of that hand-off: reading and sorting on the supervisor's side, taking in a web process.
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { laneOf } from "./request-lanes.server";

/** The kinds of web process: visitors' (signed-out GETs) at normal priority, signed-in work below it. */
export type WebProcessKind = "visitors" | "signed-in";

/** Node's own limit on a request's head (--max-http-header-size): a longer one is the web process's to refuse (431). */
export const HEAD_LIMIT_BYTES = 16 * 1024;
/** A head not complete this long after its first byte is handed on as it is; the web process's own header time limit then applies. */
export const HEAD_WAIT_MS = 2_000;
/**
 * A connection that sends nothing is closed after this long. Browsers open connections ahead of need (preconnect)
 * and may send the first request seconds later: it, not the silence, decides where the connection goes.
 */
export const FIRST_BYTE_WAIT_MS = 60_000;

const HEAD_END = "\r\n\r\n";

/** What a connection's first bytes ask for: signed-in work by `laneOf`'s rule (a method other than GET or HEAD, a session or bearer token, an upload), or a visitor's request. */
export function kindOfRequestHead(head: Buffer): WebProcessKind {
  const text = head.toString("latin1");
  const end = text.indexOf(HEAD_END);
  const [requestLine, ...headerLines] = (end >= 0 ? text.slice(0, end) : text).split("\r\n");
  const [method, url] = requestLine.split(" ");
  const headers: { cookie?: string; authorization?: string } = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    if (colon <= 0 || (name !== "cookie" && name !== "authorization")) continue;
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] ? `${headers[name]}; ${value}` : value;
  }
  return laneOf({ method, url, headers }) ? "signed-in" : "visitors";
}

/**
 * Reads a new connection (accepted paused) up to the end of its first request's head, or `limitBytes`, or what came
 * within `waitMs` of the first byte; then stops reading, so that every later byte stays in the kernel for the process
 * the socket is handed to. Resolves what was read, or null when the connection closed or failed first, or sent
 * nothing for `firstByteWaitMs`.
 */
export function readRequestHead(
  socket: Socket,
  { limitBytes = HEAD_LIMIT_BYTES, waitMs = HEAD_WAIT_MS, firstByteWaitMs = FIRST_BYTE_WAIT_MS } = {},
): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let timer = setTimeout(() => finish(null), firstByteWaitMs);
    const finish = (head: Buffer | null) => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("close", onClose);
      socket.off("error", onClose);
      resolve(head && Buffer.concat([head, stopReading(socket)]));
    };
    const onData = (chunk: Buffer) => {
      if (length === 0) {
        clearTimeout(timer);
        timer = setTimeout(() => finish(Buffer.concat(chunks, length)), waitMs);
      }
      chunks.push(chunk);
      length += chunk.length;
      // The end of the head may straddle two chunks: look from just before the new one.
      const seen = Buffer.concat(chunks, length);
      if (length >= limitBytes || seen.indexOf(HEAD_END, Math.max(0, length - chunk.length - 3), "latin1") >= 0) finish(seen);
    };
    const onClose = () => finish(null);
    socket.on("data", onData);
    socket.once("close", onClose);
    socket.once("error", onClose);
    socket.resume();
  });
}

interface ReadingHandle {
  reading?: boolean;
  readStop?: () => number;
}

/**
 * Stops a socket reading and returns what its stream still held (normally nothing: its 'data' events took it).
 * `pause()` alone only stops the events: the handle goes on reading into the stream's buffer, and bytes it reads
 * after the socket is handed to another process are lost (Node's hand-off drops them). So the handle itself stops
 * reading here, and the kernel keeps every later byte for the process the socket goes to.
 */
function stopReading(socket: Socket): Buffer {
  socket.pause();
  const held: Buffer[] = [];
  for (let chunk = socket.read() as Buffer | null; chunk; chunk = socket.read() as Buffer | null) held.push(chunk);
  const handle = (socket as unknown as { _handle?: ReadingHandle | null })._handle;
  if (handle?.readStop) {
    handle.reading = false;
    handle.readStop();
  }
  return Buffer.concat(held);
}

/** A web process's connections handed to it by the supervisor, for its shutdown: how many are open, and when none is. */
export interface HandedConnections {
  /** Resolves once every connection handed so far (and any handed meanwhile) has closed. */
  allClosed(): Promise<void>;
}

/** What a web process does with the connections the supervisor hands it (`takeHandedConnections`). */
export interface TakenConnections extends HandedConnections {
  /** Serves `socket` as if the server had accepted it, `head` (what the supervisor read of it) first. */
  give(socket: Socket, head: Uint8Array): void;
  /** How many are open. */
  open(): number;
  /** How many of the open ones will stay open: not those closing after their current answer (at their client's wish or `keepAtMost`'s). */
  staying(): number;
  /**
   * Brings the open connections down to `keep`: each beyond it is closed once it has answered its next request (with
   * `Connection: close`, as the shutdown does), and its client opens another for the request after, which the
   * supervisor may hand to another web process. Connections that close on their own, or whose request in hand
   * asked to close (`Connection: close`), count toward it; once no more than `keep` stay, nothing more is closed. A
   * connection that sends no more requests is left to its keep-alive timeout: it carries no load. A later call
   * replaces the target.
   */
  keepAtMost(keep: number): void;
}

/**
 * A web process's HTTP server takes each connection the supervisor hands it (`give`), with the bytes the supervisor
 * read of it, as if it had accepted it itself. The server never listens. `onCount` hears how many are open after
 * each change.
 */
export function takeHandedConnections(server: Server, onCount: (open: number) => void = () => {}): TakenConnections {
  // Node checks its connections' header and request time limits (headersTimeout, requestTimeout), and can close idle
  // ones, from when a server starts listening. This one never listens, so it is told; otherwise a client that sends
  // its headers a byte at a time would hold a connection for ever.
  server.emit("listening");
  const open = new Set<Socket>();
  let onEmpty: Array<() => void> = [];
  /** What `keepAtMost` asked for, until no more than that are open; and the connections answering their last request. */
  let keep: number | null = null;
  const closing = new Set<Socket>();
  const staying = () => open.size - closing.size;
  const targetMet = () => {
    if (keep !== null && staying() <= keep) keep = null;
  };
  // Before the app's own listener, so that the header is there whatever the app sends.
  server.prependListener("request", (req, res) => {
    if (closing.has(req.socket) || res.headersSent) return;
    // A request that asked for its connection to close (or came on HTTP/1.0) ends it after its answer.
    if (!res.shouldKeepAlive) {
      closing.add(req.socket);
      return targetMet();
    }
    if (keep === null) return;
    res.setHeader("Connection", "close");
    closing.add(req.socket);
    targetMet();
  });
  return {
    give(socket, head) {
      open.add(socket);
      socket.once("close", () => {
        open.delete(socket);
        closing.delete(socket);
        targetMet();
        onCount(open.size);
        if (open.size === 0) {
          for (const resolve of onEmpty) resolve();
          onEmpty = [];
        }
      });
      onCount(open.size);
      server.emit("connection", socket);
      // The HTTP parser reads what arrives from now on; what the supervisor read comes first.
      if (head.length > 0) socket.emit("data", Buffer.from(head.buffer, head.byteOffset, head.byteLength));
    },
    open: () => open.size,
    staying,
    keepAtMost(target) {
      keep = Math.max(0, target);
      targetMet();
    },
    allClosed: () => (open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => onEmpty.push(resolve))),
  };
}
