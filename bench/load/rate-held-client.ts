// A rate-held HTTP GET client for the load bench's large answers (model downloads), which reads each body
// and throws the bytes away. autocannon 9 appends every body chunk to a string (`req.body += data` in its
// pipelined-requests queue): a few MB of binary per answer cost the load generator most of a core at 20
// downloads/s, so the bench measured its own client and took that core from the server under test. This one
// uses Node's http parser and counts the bytes instead: an answer shorter than its Content-Length is not an answer.
import http from "node:http";

export interface DiscardingRun {
  origin: string;
  /** Requests per second, held over all connections (as autocannon's overallRate). */
  rate: number;
  connections: number;
  seconds: number;
  timeoutMs: number;
  headers: Record<string, string>;
  path: () => string;
  onAnswer: (ms: number, status: number) => void;
  onNoAnswer: (why: string) => void;
}

export async function runDiscardingClient(run: DiscardingRun): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: run.connections });
  const { hostname, port } = new URL(run.origin);
  const interval = 1000 / run.rate;
  const until = Date.now() + run.seconds * 1000;
  let nextStart = Date.now();
  const get = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const request = http.get({ hostname, port, path: run.path(), agent, headers: run.headers, timeout: run.timeoutMs }, (response) => {
        const expected = Number(response.headers["content-length"] ?? NaN);
        let received = 0;
        response.on("data", (chunk: Buffer) => (received += chunk.length));
        response.on("end", () => {
          if (Number.isFinite(expected) && received !== expected) run.onNoAnswer(`${received} of ${expected} bytes`);
          else run.onAnswer(performance.now() - started, response.statusCode ?? 0);
          resolve();
        });
        response.on("error", (error) => (run.onNoAnswer(error.message), resolve()));
      });
      request.on("timeout", () => request.destroy(new Error(`no answer in ${run.timeoutMs} ms`)));
      request.on("error", (error) => (run.onNoAnswer(error.message), resolve()));
    });
  // Each connection sends its next request at the next free slot of the overall rate, after its last answer.
  const connection = async () => {
    for (;;) {
      const at = Math.max(nextStart, Date.now());
      nextStart = at + interval;
      if (at >= until) return;
      if (at > Date.now()) await new Promise((resolve) => setTimeout(resolve, at - Date.now()));
      await get();
    }
  };
  await Promise.all(Array.from({ length: run.connections }, connection));
  agent.destroy();
}
