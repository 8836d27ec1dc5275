// The load bench's visitors' HTTP client: GETs at a rate, arriving at random moments as independent visitors' do,
// over a set of keep-alive connections (Node's own http agent), each answer's body read and thrown away. An answer
// shorter than its Content-Length is not an answer.
// Not autocannon, which the bench used first, for two reasons it showed: autocannon 9 appends every body chunk to a
// string (`req.body += data`), so a few MB of binary per model download cost the load generator most of a core at
// 20 downloads/s, taken from the server under test (decision 058); and it reads no `Connection: close` and keeps
// the request it had sent on a connection that closes in its queue, so after a web process is killed, or closes a
// connection to share it out (decision 070), each later answer on that client is matched to the request before it:
// latencies of up to a second that no request waited.
import http from "node:http";

export interface RateHeldRun {
  origin: string;
  /** Requests per second, held over all connections. */
  rate: number;
  connections: number;
  seconds: number;
  timeoutMs: number;
  headers: Record<string, string>;
  path: () => string;
  onAnswer: (ms: number, status: number) => void;
  onNoAnswer: (why: string) => void;
}

export async function runRateHeldClient(run: RateHeldRun): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: run.connections });
  const { hostname, port } = new URL(run.origin);
  /** The mean gap between requests, ms. */
  const interval = 1000 / run.rate;
  /** Now, ms since the epoch, to a fraction of a ms. */
  const now = () => performance.timeOrigin + performance.now();
  const until = now() + run.seconds * 1000;
  let nextDue = now();
  /** One GET, timed from `due`: the moment its visitor came, which may be before a connection was free to send it. */
  const get = (due: number) =>
    new Promise<void>((resolve) => {
      const request = http.get({ hostname, port, path: run.path(), agent, headers: run.headers, timeout: run.timeoutMs }, (response) => {
        const expected = Number(response.headers["content-length"] ?? NaN);
        let received = 0;
        response.on("data", (chunk: Buffer) => (received += chunk.length));
        response.on("end", () => {
          if (Number.isFinite(expected) && received !== expected) run.onNoAnswer(`${received} of ${expected} bytes`);
          else run.onAnswer(now() - due, response.statusCode ?? 0);
          resolve();
        });
        response.on("error", (error) => (run.onNoAnswer(error.message), resolve()));
      });
      request.on("timeout", () => request.destroy(new Error(`no answer in ${run.timeoutMs} ms`)));
      request.on("error", (error) => (run.onNoAnswer(error.message), resolve()));
    });
  // Requests come as many independent visitors' would: at random moments, `rate` a second on average (exponential
  // gaps: a Poisson process), whatever the answers take. Each is sent by a connection free when it is due, else by
  // the first to be free, and timed from when it was due: a visitor who comes while every connection waits on a slow
  // answer waits too, and counts that wait (a client that only sent when free would leave those waits out).
  const connection = async () => {
    for (;;) {
      const due = nextDue;
      nextDue = due - interval * Math.log(1 - Math.random());
      if (due >= until) return;
      if (due > now()) await new Promise((resolve) => setTimeout(resolve, due - now()));
      await get(due);
    }
  };
  await Promise.all(Array.from({ length: run.connections }, connection));
  agent.destroy();
}
