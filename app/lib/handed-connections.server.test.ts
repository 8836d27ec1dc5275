import { fork, type ChildProcess } from "node:child_process";
import http from "node:http";
import { createHash, randomBytes } from "node:crypto";
import net, { type Socket } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kindOfRequestHead, readRequestHead, takeHandedConnections } from "./handed-connections.server";
import { SESSION_COOKIE_NAME } from "./session-cookie";
import { getsAtOnce } from "../../tests/setup/gets-at-once";

const head = (text: string) => Buffer.from(text.replaceAll("\n", "\r\n"), "latin1");

describe("kindOfRequestHead", () => {
  it("sends a signed-out GET or HEAD to the visitors' processes", () => {
    expect(kindOfRequestHead(head("GET /item/1 HTTP/1.1\nHost: x\nCookie: theme=dark\n\n"))).toBe("visitors");
    expect(kindOfRequestHead(head("HEAD / HTTP/1.1\nHost: x\n\n"))).toBe("visitors");
    expect(kindOfRequestHead(head("GET /storage/items/1/model.glb?sig=x HTTP/1.1\nHost: x\n\n"))).toBe("visitors");
  });

  it("sends signed-in work (a session cookie, a bearer token, any other method, an upload) to the signed-in processes", () => {
    expect(kindOfRequestHead(head(`GET /dashboard HTTP/1.1\nHost: x\ncookie: theme=dark\nCookie: ${SESSION_COOKIE_NAME}=abc\n\n`))).toBe("signed-in");
    expect(kindOfRequestHead(head("GET /v1/items HTTP/1.1\nAUTHORIZATION: Bearer t\n\n"))).toBe("signed-in");
    expect(kindOfRequestHead(head("POST /session HTTP/1.1\nHost: x\nContent-Length: 2\n\n{}"))).toBe("signed-in");
    expect(kindOfRequestHead(head("PUT /storage/items/1/model.glb?sig=x HTTP/1.1\nHost: x\n\n"))).toBe("signed-in");
  });

  it("reads only the head: a header named in the body does not count", () => {
    expect(kindOfRequestHead(head(`GET / HTTP/1.1\nHost: x\n\nCookie: ${SESSION_COOKIE_NAME}=abc\n\n`))).toBe("visitors");
  });
});

describe("readRequestHead", () => {
  /** What `readRequestHead` resolves for a connection the client drives with `client`. */
  async function readFrom(client: (socket: Socket) => Promise<void>, options: Parameters<typeof readRequestHead>[1]): Promise<Buffer | null> {
    let read!: Promise<Buffer | null>;
    const server = net.createServer({ pauseOnConnect: true }, (socket) => (read = readRequestHead(socket, options)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const socket = net.connect((server.address() as net.AddressInfo).port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    await client(socket);
    const head = await read;
    socket.destroy();
    server.close();
    return head;
  }

  it("waits for the first byte of a connection opened ahead of need, then reads its head", async () => {
    // A browser's preconnect: silent for longer than a head may take once it has begun, then a signed-out GET.
    const head = await readFrom(
      async (socket) => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        socket.write("GET /item/1 HTTP/1.1\r\nHost: x\r\n\r\n");
      },
      { waitMs: 200, firstByteWaitMs: 5_000 },
    );
    expect(head?.toString("latin1")).toBe("GET /item/1 HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(kindOfRequestHead(head!)).toBe("visitors");
  });

  it("gives up on a connection that sends nothing, and hands on a head that stops coming as it is", async () => {
    expect(await readFrom(async () => {}, { firstByteWaitMs: 200 })).toBeNull();
    const partial = await readFrom(async (socket) => void socket.write("GET / HTTP/1.1\r\nHost: x\r\n"), { waitMs: 200 });
    expect(partial?.toString("latin1")).toBe("GET / HTTP/1.1\r\nHost: x\r\n");
  });
});

describe("a connection read by the supervisor and handed to another process", () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  let child: ChildProcess;
  let front: net.Server;
  let port = 0;
  const heads: Buffer[] = [];

  beforeAll(async () => {
    child = fork(path.join(root, "tests/setup/handed-connections-child.ts"), {
      execArgv: ["--import", "tsx"],
      env: { ...process.env, HEADERS_TIMEOUT_MS: "1000" },
      serialization: "advanced",
    });
    await new Promise((resolve) => child.once("message", resolve));
    // The supervisor's side: read the head (in whatever pieces it comes), stop reading, hand the socket and the bytes on.
    front = net.createServer({ pauseOnConnect: true }, (socket) => {
      void readRequestHead(socket, { waitMs: 300 }).then((read) => {
        if (!read) return socket.destroy();
        heads.push(read);
        child.send({ head: read }, socket);
      });
    });
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    port = (front.address() as net.AddressInfo).port;
  }, 30_000);

  afterAll(() => {
    front?.close();
    child?.kill();
  });

  const connect = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => resolve(socket));
      socket.once("error", reject);
    });
  /** The first `answers` answers the server sends on `socket` (each a JSON body saying what the request was). */
  const answersOn = (socket: Socket, answers: number) =>
    new Promise<Array<Record<string, unknown>>>((resolve, reject) => {
      let text = "";
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        const bodies = [...text.matchAll(/\{"method"[^}]*\}/g)].map((match) => JSON.parse(match[0]) as Record<string, unknown>);
        if (bodies.length >= answers) resolve(bodies);
      });
      socket.once("error", reject);
    });
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("loses no byte: a head in pieces, a body sent after the hand-off, and a second request on the same connection", async () => {
    const body = randomBytes(3 * 1024 * 1024);
    const socket = await connect();
    const answers = answersOn(socket, 2);
    // The end of the head split across two writes, then the body in pieces while the socket changes hands.
    socket.write(`PUT /first HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r`);
    await pause(50);
    socket.write(`\n${body.subarray(0, 1000).toString("latin1")}`, "latin1");
    for (let at = 1000; at < body.length; at += 256 * 1024) {
      socket.write(body.subarray(at, Math.min(body.length, at + 256 * 1024)));
      await pause(5);
    }
    socket.write("GET /second HTTP/1.1\r\nHost: x\r\n\r\n");
    const [first, second] = await answers;
    socket.destroy();
    expect(first).toEqual({ method: "PUT", url: "/first", length: body.length, sha256: createHash("sha256").update(body).digest("hex") });
    expect(second).toEqual({ method: "GET", url: "/second", length: 0, sha256: createHash("sha256").digest("hex") });
    // The supervisor read the head and at most what came with it in one read, not the body.
    expect(heads.at(-1)!.length).toBeLessThan(body.length / 4);
  });

  it("holds a client that sends its head slowly to the web process's header time limit (408), not for ever", async () => {
    const socket = await connect();
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.write("GET / HTTP/1.1\r\nHost: x\r\n");
    const keepTrickling = setInterval(() => socket.writable && socket.write("X-Slow: 1\r\n"), 200);
    await closed;
    clearInterval(keepTrickling);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 20_000);
});

describe("a web process's handed connections", () => {
  it("brings its connections down to the number asked for, each closed after its next answer (Connection: close), and counts what is open", async () => {
    const server = http.createServer((_req, res) => res.end("ok"));
    const counts: number[] = [];
    const connections = takeHandedConnections(server, (open) => counts.push(open));
    const front = net.createServer((socket) => connections.give(socket, new Uint8Array()));
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    const { port } = front.address() as net.AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    /** Four requests at once on the agent's keep-alive connections: what each answer says of its connection. */
    const fourAtOnce = async () => (await getsAtOnce(`http://127.0.0.1:${port}/`, agent, 4)).map(({ headers }) => String(headers.connection));
    const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
    expect(await fourAtOnce()).toEqual(Array(4).fill("keep-alive"));
    await settle();
    expect(connections.open()).toBe(4);

    // Asked to keep one: the next three answers say close, on three connections, and they close after them.
    connections.keepAtMost(1);
    expect((await fourAtOnce()).sort()).toEqual(["close", "close", "close", "keep-alive"]);
    await settle();
    expect(connections.open()).toBe(1);
    // The client opened new connections for the next requests: answered, and kept (the target was met).
    expect(await fourAtOnce()).toEqual(Array(4).fill("keep-alive"));
    await settle();
    expect(connections.open()).toBe(4);

    // Asked to keep two, while the client closes two of its own: those count, the target is met, and the
    // connections of another client after it are kept.
    connections.keepAtMost(2);
    for (const socket of Object.values(agent.freeSockets).flat().slice(0, 2)) socket?.destroy();
    await settle();
    expect(connections.open()).toBe(2);
    const otherAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    expect((await getsAtOnce(`http://127.0.0.1:${port}/`, otherAgent, 4)).map(({ headers }) => String(headers.connection))).toEqual(Array(4).fill("keep-alive"));
    await settle();
    expect(connections.open()).toBe(6);
    expect(Math.max(...counts)).toBe(6);

    agent.destroy();
    otherAgent.destroy();
    front.close();
    await connections.allClosed();
    expect(counts.at(-1)).toBe(0);
  });

  it("does not count a connection whose request asked to close as staying, so it counts toward the number asked for", async () => {
    let release = () => {};
    let slowArrived = () => {};
    const arrived = new Promise<void>((resolve) => (slowArrived = resolve));
    const server = http.createServer((req, res) => {
      if (req.url !== "/slow") return res.end("ok");
      slowArrived();
      release = () => res.end("slow");
    });
    const connections = takeHandedConnections(server);
    const front = net.createServer((socket) => connections.give(socket, new Uint8Array()));
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    const { port } = front.address() as net.AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
    const twoAtOnce = async () => (await getsAtOnce(`http://127.0.0.1:${port}/`, agent, 2)).map(({ headers }) => String(headers.connection));
    expect(await twoAtOnce()).toEqual(["keep-alive", "keep-alive"]);

    // A client without keep-alive (Connection: close) is being answered: open, but not staying.
    const slow = new Promise<string>((resolve, reject) =>
      http.get(`http://127.0.0.1:${port}/slow`, { agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(String(res.headers.connection)));
      }).on("error", reject),
    );
    await arrived;
    expect([connections.open(), connections.staying()]).toEqual([3, 2]);

    // Asked to keep two: the two kept-alive ones are all that stay, so neither is closed.
    connections.keepAtMost(2);
    expect(await twoAtOnce()).toEqual(["keep-alive", "keep-alive"]);
    release();
    expect(await slow).toBe("close");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect([connections.open(), connections.staying()]).toEqual([2, 2]);

    agent.destroy();
    front.close();
    await connections.allClosed();
  });
});
