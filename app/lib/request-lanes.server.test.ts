import { EventEmitter } from "node:events";
import type { AddressInfo } from "node:net";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { laneOf, requestLanes, type LaneLimits } from "./request-lanes.server";
import { SESSION_COOKIE_NAME } from "./session-cookie";

describe("laneOf", () => {
  it("leaves signed-out visitors' GETs and HEADs in no lane", () => {
    expect(laneOf({ method: "GET", url: "/item/1", headers: {} })).toBeNull();
    expect(laneOf({ method: "HEAD", url: "/", headers: { cookie: "theme=dark" } })).toBeNull();
    expect(laneOf({ method: "GET", url: "/storage/items/1/model.glb?sig=x", headers: {} })).toBeNull();
  });

  it("puts requests that act for someone or change something in the signed-in lane", () => {
    expect(laneOf({ method: "GET", url: "/v1/items", headers: { authorization: "Bearer token" } })).toBe("signed-in");
    expect(laneOf({ method: "GET", url: "/dashboard", headers: { cookie: `theme=dark; ${SESSION_COOKIE_NAME}=abc` } })).toBe("signed-in");
    expect(laneOf({ method: "POST", url: "/session", headers: {} })).toBe("signed-in");
    expect(laneOf({ method: "PATCH", url: "/v1/item/1", headers: {} })).toBe("signed-in");
    expect(laneOf({ method: "DELETE", url: "/v1/item/1", headers: {} })).toBe("signed-in");
    // The API's own PUTs (JSON: reorder, settings) are signed-in work, not uploads.
    expect(laneOf({ method: "PUT", url: "/v1/item/1/scene", headers: { authorization: "Bearer token" } })).toBe("signed-in");
  });

  it("puts file uploads (PUT to a signed link) in their own lane", () => {
    expect(laneOf({ method: "PUT", url: "/storage/items/1/model.glb?sig=x", headers: {} })).toBe("uploads");
  });
});

/** Waits until `list` holds `count` entries (or a second has passed); resolves with its length. */
async function lengthOf(list: string[], count: number): Promise<number> {
  for (let i = 0; i < 100 && list.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return list.length;
}

/**
 * A server whose every request (named by its path) is held until the test releases it; `arrived` lists the requests
 * the server got, `started` those the lanes let through, `closed` those whose response or connection ended, in order.
 */
async function heldServer(limits: LaneLimits) {
  const lanes = requestLanes(limits);
  const arrived: string[] = [];
  const started: string[] = [];
  const closed: string[] = [];
  const releases = new Map<string, () => void>();
  // "/storage/upload" (a signed link) is named "upload".
  const nameOf = (url: string) => url.replace(/^\/(storage\/)?/, "");
  const server: Server = createServer((req, res) => {
    arrived.push(nameOf(req.url!));
    res.once("close", () => closed.push(nameOf(req.url!)));
    lanes(req, res, () => {
      const name = nameOf(req.url!);
      started.push(name);
      releases.set(name, () => res.end(name));
      if (name.startsWith("visitor")) res.end(name);
      // A long answer (a download): its headers and first bytes go out at once, the rest when released.
      if (name.startsWith("download")) res.writeHead(200, { "Content-Type": "application/octet-stream" }).write("bytes ");
      if (name.startsWith("listed-download")) res.writeHead(200, ["Content-Type", "application/octet-stream"]).write("bytes ");
      // A page or data streamed in parts: its place is held until the last part.
      if (name.startsWith("page")) res.writeHead(200, { "Content-Type": "text/html" }).write("<p>");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const send = (name: string, init: RequestInit = {}) => fetch(`${origin}/${name}`, init).then((res) => res.text());
  const release = (name: string) => releases.get(name)!();
  return {
    server,
    started,
    send,
    release,
    startedCount: (count: number) => lengthOf(started, count),
    arrivedCount: (count: number) => lengthOf(arrived, count),
    closedCount: (count: number) => lengthOf(closed, count),
  };
}

const bearer = { headers: { authorization: "Bearer token" } };

describe("requestLanes", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("runs signed-in requests a few at a time in arrival order while visitors' GETs pass at once", async () => {
    const held = await heldServer({ "signed-in": 1, uploads: 1 });
    server = held.server;
    const first = held.send("first", bearer);
    expect(await held.startedCount(1)).toBe(1);
    const second = held.send("second", { method: "POST", body: "{}" });
    expect(await held.arrivedCount(2)).toBe(2);
    const third = held.send("third", bearer);
    expect(await held.arrivedCount(3)).toBe(3);
    // The visitor is answered while two signed-in requests wait behind the first.
    expect(await held.send("visitor")).toBe("visitor");
    expect(held.started).toEqual(["first", "visitor"]);

    held.release("first");
    expect(await first).toBe("first");
    expect(await held.startedCount(3)).toBe(3);
    expect(held.started).toEqual(["first", "visitor", "second"]);
    held.release("second");
    expect(await second).toBe("second");
    expect(await held.startedCount(4)).toBe(4);
    held.release("third");
    expect(await third).toBe("third");
    expect(held.started).toEqual(["first", "visitor", "second", "third"]);
  });

  it("keeps uploads and signed-in requests in separate lanes", async () => {
    const held = await heldServer({ "signed-in": 1, uploads: 1 });
    server = held.server;
    const upload = held.send("storage/upload", { method: "PUT", body: "bytes" });
    expect(await held.startedCount(1)).toBe(1);
    const call = held.send("call", bearer);
    // A slow upload does not hold up the API, nor the API an upload.
    expect(await held.startedCount(2)).toBe(2);
    const secondUpload = held.send("storage/second-upload", { method: "PUT", body: "bytes" });
    expect(await held.arrivedCount(3)).toBe(3);
    expect(held.started).toEqual(["upload", "call"]);
    held.release("upload");
    expect(await upload).toBe("upload");
    expect(await held.startedCount(3)).toBe(3);
    expect(held.started).toEqual(["upload", "call", "second-upload"]);
    held.release("call");
    held.release("second-upload");
    expect([await call, await secondUpload]).toEqual(["call", "second-upload"]);
  });

  it("holds a page's place until its last part is sent", async () => {
    const held = await heldServer({ "signed-in": 1, uploads: 1 });
    server = held.server;
    const page = held.send("page", bearer);
    expect(await held.startedCount(1)).toBe(1);
    const call = held.send("call", bearer);
    expect(await held.arrivedCount(2)).toBe(2);
    expect(held.started).toEqual(["page"]);
    held.release("page");
    expect(await page).toBe("<p>page");
    expect(await held.startedCount(2)).toBe(2);
    held.release("call");
    expect(await call).toBe("call");
  });

  it.each(["download", "listed-download"])("frees a place once a file's headers are out: a signed-in person's long download holds none (%s)", async (name) => {
    const held = await heldServer({ "signed-in": 1, uploads: 1 });
    server = held.server;
    const download = held.send(name, bearer);
    expect(await held.startedCount(1)).toBe(1);
    const call = held.send("call", bearer);
    expect(await held.startedCount(2)).toBe(2);
    held.release("call");
    expect(await call).toBe("call");
    held.release(name);
    expect(await download).toBe(`bytes ${name}`);
  });

  it("drops a waiting request whose client went away, and frees the place of one that was cut", async () => {
    const held = await heldServer({ "signed-in": 1, uploads: 1 });
    server = held.server;
    const cut = new AbortController();
    const first = held.send("first", { ...bearer, signal: cut.signal }).catch(() => "cut");
    expect(await held.startedCount(1)).toBe(1);
    const gone = new AbortController();
    const abandoned = held.send("abandoned", { ...bearer, signal: gone.signal }).catch(() => "gone");
    expect(await held.arrivedCount(2)).toBe(2);
    const last = held.send("last", bearer);
    expect(await held.arrivedCount(3)).toBe(3);
    gone.abort();
    expect(await abandoned).toBe("gone");
    expect(await held.closedCount(1)).toBe(1);
    // The running request's client goes away too: its place goes to the next one still waiting.
    cut.abort();
    expect(await first).toBe("cut");
    expect(await held.startedCount(2)).toBe(2);
    held.release("last");
    expect(await last).toBe("last");
    expect(held.started).toEqual(["first", "last"]);
  });

  it("hands a place on when the request it was handed to went away before its turn came", async () => {
    // Driven by hand: the client goes away between the place being handed over and the request starting.
    const lanes = requestLanes({ "signed-in": 1, uploads: 1 });
    const started: string[] = [];
    const request = (name: string) => {
      const req = { method: "POST", url: "/session", headers: {} } as IncomingMessage;
      const res = Object.assign(new EventEmitter(), { writeHead: () => res, getHeader: () => "application/octet-stream" }) as unknown as ServerResponse;
      lanes(req, res, () => started.push(name));
      return res;
    };
    const first = request("first");
    const second = request("second");
    request("third");
    first.writeHead(200);
    second.emit("close");
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(["first", "third"]);
  });
});
