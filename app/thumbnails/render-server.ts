// The renderer process (docs/decisions/062-one-renderer-process.md): started once by a process that works the
// thumbnail and turntable queues (app/thumbnails/renderer-process.server.ts), it renders the jobs sent over its
// IPC channel one at a time and answers each with its timings or a one-line reason, then its resident memory.
// It leaves when its parent goes away. Run with tsx from the project root:
//   fork("app/thumbnails/render-server.ts", { execArgv: ["--import", "tsx"] })
import { renderJobSchema, runRenderJob } from "./render-jobs.server";

export interface RenderRequest {
  id: number;
  job: unknown;
}

export type RenderAnswer = { id: number; rssBytes: number } & ({ timings: Record<string, unknown> } | { failed: string });

const send = (answer: RenderAnswer) => process.send?.(answer);
let queue = Promise.resolve();

process.on("message", (request: RenderRequest) => {
  queue = queue.then(async () => {
    try {
      const timings = await runRenderJob(renderJobSchema.parse(request.job));
      send({ id: request.id, timings, rssBytes: process.memoryUsage.rss() });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      send({ id: request.id, failed: reason.split("\n")[0].slice(0, 400), rssBytes: process.memoryUsage.rss() });
    }
  });
});
process.on("disconnect", () => process.exit(0));
