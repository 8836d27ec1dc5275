// Several GETs at once through one HTTP agent (keep-alive connections, as a proxy or a browser holds them), each
// answer's status and headers once its body has been read.
import { get, type Agent, type IncomingHttpHeaders } from "node:http";

export function getsAtOnce(url: string, agent: Agent, count: number): Promise<Array<{ status: number; headers: IncomingHttpHeaders }>> {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<{ status: number; headers: IncomingHttpHeaders }>((resolve, reject) =>
          get(url, { agent }, (res) => {
            res.resume();
            res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
          }).on("error", reject),
        ),
    ),
  );
}
