import { request as httpRequest, type IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { asksToRender, openSelfRequests, selfRequestOrigin } from "./self-requests.server";

interface Seen {
  path: string;
  host: string | undefined;
  acceptEncoding: string | undefined;
  origin: string | null;
  render: boolean;
}

function recorder() {
  const seen: Seen[] = [];
  let inFlight = 0;
  let mostAtOnce = 0;
  const handler = (req: IncomingMessage, res: import("node:http").ServerResponse) => {
    seen.push({ path: req.url!, host: req.headers.host, acceptEncoding: req.headers["accept-encoding"], origin: selfRequestOrigin(req), render: asksToRender(req) });
    inFlight++;
    mostAtOnce = Math.max(mostAtOnce, inFlight);
    setTimeout(() => {
      inFlight--;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ path: req.url }));
    }, 30);
  };
  return { seen, handler, mostAtOnce: () => mostAtOnce };
}

describe("a web process's requests of its own", () => {
  it("ask as a visitor on the origin they name would, render only when told to, and go at most atOnce at a time", async () => {
    const site = recorder();
    const self = await openSelfRequests(site.handler, { atOnce: 2 });
    const answers = await Promise.all([
      self.get({ path: "/v1/items?limit=1", linkOrigin: "https://scanroom.example", keepBody: true }),
      self.get({ path: "/?sort=newest", linkOrigin: "http://127.0.0.1:3000", render: true }),
      self.get({ path: "/", linkOrigin: "https://scanroom.example" }),
      self.get({ path: "/explore", linkOrigin: "https://scanroom.example" }),
    ]);
    await self.close();
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(JSON.parse(answers[0].body)).toEqual({ path: "/v1/items?limit=1" });
    // An answer not kept is read and thrown away.
    expect(answers[2].body).toBe("");
    expect(site.seen).toEqual([
      { path: "/v1/items?limit=1", host: "scanroom.example", acceptEncoding: "identity", origin: "https://scanroom.example", render: false },
      { path: "/?sort=newest", host: "127.0.0.1:3000", acceptEncoding: "gzip, deflate, br", origin: "http://127.0.0.1:3000", render: true },
      { path: "/", host: "scanroom.example", acceptEncoding: "gzip, deflate, br", origin: "https://scanroom.example", render: false },
      { path: "/explore", host: "scanroom.example", acceptEncoding: "gzip, deflate, br", origin: "https://scanroom.example", render: false },
    ]);
    expect(site.mostAtOnce()).toBe(2);
  });

  it("are told from anyone else's, even a request on their own listener with their headers and a guessed secret", async () => {
    const site = recorder();
    const self = await openSelfRequests(site.handler, { atOnce: 1 });
    const forged = {
      host: "evil.example",
      "x-scanroom-self": "a-guess",
      "x-scanroom-self-origin": "https://evil.example",
      "x-scanroom-self-render": "1",
    };
    await new Promise<void>((resolve, reject) =>
      httpRequest({ host: "127.0.0.1", port: self.port, path: "/", headers: forged }, (res) => res.resume().on("end", resolve))
        .on("error", reject)
        .end(),
    );
    await self.close();
    expect(site.seen).toEqual([{ path: "/", host: "evil.example", acceptEncoding: undefined, origin: null, render: false }]);
  });

  it("give up at their deadline", async () => {
    const self = await openSelfRequests((_req, res) => void setTimeout(() => res.end("late"), 1_000), { atOnce: 1 });
    const started = Date.now();
    const answer = await self.get({ path: "/", linkOrigin: "https://scanroom.example", deadline: Date.now() + 100 });
    process.stdout.write(`a request of its own past its 100 ms deadline gave up after ${Date.now() - started} ms\n`);
    await self.close();
    expect(answer).toEqual({ status: 0, body: "" });
  });
});
