/**
 * The one renderer process a web or worker process keeps for its thumbnails and turntables
 * (docs/decisions/062-one-renderer-process.md). It is started at the first job, renders the jobs one at a time at
 * the lowest CPU priority (the requests of the process that queued them come first), and is kept while jobs come:
 * a job no longer pays for starting Node and compiling the renderers (about 0.9 s of CPU each), nor its parent
 * for forking itself (tens of ms with the event loop stopped, for a web process of hundreds of MB).
 *
 * A job that runs past its time limit ends the process (and the ffmpeg it started: its process group); a crash
 * fails the job it was doing with the last line it printed. Either way the next job starts a new process. The
 * process leaves after IDLE_MS without work, and after a job that left it holding more than MAX_RSS_BYTES.
 */
import { fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { NICE } from "~/tools/run-tool.server";
import type { RenderJob, RenderTimings } from "./render-jobs.server";
import type { RenderAnswer, RenderRequest } from "./render-server";

const IDLE_MS = 60_000;
const MAX_RSS_BYTES = 1536 * 1024 * 1024;
const STDERR_TAIL_CHARS = 4_000;

export type RenderOutcome = { timings: RenderTimings } | { failed: string };

interface Pending {
  id: number;
  job: RenderJob;
  timeoutMs: number;
  resolve: (outcome: RenderOutcome) => void;
}

export interface RendererProcessOptions {
  /** The process's entry (render-server.ts) and Node's arguments for it. */
  entry?: string;
  execArgv?: string[];
  idleMs?: number;
  maxRssBytes?: number;
}

export class RendererProcess {
  private child: ChildProcess | null = null;
  private stderrTail = "";
  private readonly waiting: Pending[] = [];
  private running: (Pending & { timer: NodeJS.Timeout }) | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private nextId = 1;
  /** How many processes were started (for tests and logs). */
  started = 0;

  constructor(private readonly options: RendererProcessOptions = {}) {}

  /** The running process's id, if one runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Renders one job; never throws: a model it cannot draw, a crash or a timeout is `{ failed }` with the reason. */
  render(job: RenderJob, timeoutMs: number): Promise<RenderOutcome> {
    return new Promise((resolve) => {
      this.waiting.push({ id: this.nextId++, job, timeoutMs, resolve });
      this.startNext();
    });
  }

  /** Ends the process now (the jobs waiting fail). */
  close(): void {
    for (const pending of this.waiting.splice(0)) pending.resolve({ failed: "the renderer was closed" });
    this.stop("the renderer was closed");
  }

  private startNext(): void {
    if (this.running || this.waiting.length === 0) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const pending = this.waiting.shift()!;
    let child: ChildProcess;
    try {
      child = this.child ?? this.spawn();
    } catch (error) {
      pending.resolve({ failed: `the renderer could not start: ${(error as Error).message}` });
      this.startNext();
      return;
    }
    const timer = setTimeout(() => this.stop(`timed out after ${Math.round(pending.timeoutMs / 1000)} s`), pending.timeoutMs);
    this.running = { ...pending, timer };
    child.send({ id: pending.id, job: pending.job } satisfies RenderRequest);
  }

  private spawn(): ChildProcess {
    const entry = this.options.entry ?? path.join(process.cwd(), "app/thumbnails/render-server.ts");
    const nodeArgs = this.options.execArgv ?? ["--import", "tsx"];
    // Through coreutils' nice, so that every thread of it (Linux keeps priorities per thread) and the ffmpeg it
    // starts run at the lowest priority; nice execs Node in place, which keeps the IPC channel.
    const niced = existsSync(NICE);
    const child = fork(entry, [], {
      execPath: niced ? NICE : process.execPath,
      execArgv: niced ? ["-n", "19", process.execPath, ...nodeArgs] : nodeArgs,
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      // Its own process group: a timeout ends the ffmpeg it started too.
      detached: true,
    });
    this.started += 1;
    this.child = child;
    this.stderrTail = "";
    child.stderr?.on("data", (chunk: Buffer) => (this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL_CHARS)));
    child.on("message", (answer: RenderAnswer) => this.answered(child, answer));
    child.on("exit", (code, signal) => this.exited(child, code, signal));
    child.on("error", () => undefined);
    // Never what keeps this process alive: it leaves with its parent (render-server.ts).
    child.unref();
    child.channel?.unref();
    (child.stderr as { unref?: () => void } | null)?.unref?.();
    return child;
  }

  private answered(child: ChildProcess, answer: RenderAnswer): void {
    if (child !== this.child || answer.id !== this.running?.id) return;
    this.finishRunning("failed" in answer ? { failed: answer.failed } : { timings: answer.timings });
    if (answer.rssBytes > (this.options.maxRssBytes ?? MAX_RSS_BYTES)) this.stop(null);
    else if (this.waiting.length > 0) this.startNext();
    else this.idleTimer = setTimeout(() => this.stop(null), this.options.idleMs ?? IDLE_MS).unref();
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (child !== this.child) return;
    this.child = null;
    const said = this.stderrTail.trim().split("\n").filter(Boolean).slice(-2).join(" ").slice(0, 400);
    this.finishRunning({ failed: `stopped (${signal ?? `exit ${code}`})${said ? `: ${said}` : ""}` });
    this.startNext();
  }

  /** Answers the job being rendered, if there is one, with `outcome`. */
  private finishRunning(outcome: RenderOutcome): void {
    const running = this.running;
    if (!running) return;
    this.running = null;
    clearTimeout(running.timer);
    running.resolve(outcome);
  }

  /** Ends the process and its group; a job it was running fails with `reason`. */
  private stop(reason: string | null): void {
    const child = this.child;
    if (!child) return;
    if (reason) this.finishRunning({ failed: reason });
    this.child = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
    this.startNext();
  }
}

let shared: RendererProcess | null = null;

/** This process's renderer, started at its first job. */
export function renderer(): RendererProcess {
  return (shared ??= new RendererProcess());
}
