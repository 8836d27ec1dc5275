// A process that serves, with an HTTP server that never listens, the connections its parent hands it
// (app/lib/handed-connections.server.test.ts). Each answer says what the request was: its method, path, and the
// length and SHA-256 of its body.
import { createHash } from "node:crypto";
import http from "node:http";
import type { Socket } from "node:net";
import { takeHandedConnections } from "../../app/lib/handed-connections.server";

// Time limits checked every 100 ms, not every 30 s, so that a slow client meets its 408 within a test.
const server = http.createServer({ connectionsCheckingInterval: 100 }, (req, res) => {
  const hash = createHash("sha256");
  let length = 0;
  req.on("data", (chunk: Buffer) => {
    hash.update(chunk);
    length += chunk.length;
  });
  req.on("end", () => res.end(JSON.stringify({ method: req.method, url: req.url, length, sha256: hash.digest("hex") })));
});
server.headersTimeout = Number(process.env.HEADERS_TIMEOUT_MS ?? 60_000);
server.requestTimeout = server.headersTimeout;
const connections = takeHandedConnections(server);
process.on("message", (message: { head: Uint8Array }, socket?: Socket) => socket && connections.give(socket, message.head));
process.send?.("ready");
