import { spawn } from "node:child_process";
import { existsSync } from "node:fs";

/** Reads a tool's output line and returns its progress (0–1), or null when the line says nothing of it. */
export type ProgressParser = (line: string) => number | null;

/**
 * Runs an external tool (ffmpeg, COLMAP, a trainer) with an argument array — never a shell string —
 * in its own process group, so stopping it stops everything it started: SIGTERM to the group, then
 * SIGKILL after a grace period (issue 5: cancel = SIGTERM, then SIGKILL after 10 s).
 */
export interface RunToolOptions {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Reads progress from each output line (stdout and stderr; ffmpeg's \r-separated status too). */
  parser?: ProgressParser;
  onProgress?: (fraction: number) => void;
  onLine?: (line: string) => void;
  /** Raw stdout (e.g. decoded frames); stdout lines are not parsed then. */
  onStdout?: (chunk: Buffer) => void;
  /** Called with the process group id once started (to find orphans after a crash). */
  onSpawn?: (pid: number) => void;
  signal?: AbortSignal;
  /**
   * Work nobody is waiting on (a thumbnail, a delivery copy) runs at the lowest CPU priority (nice 19),
   * so the requests of the process that started it come first on a busy machine; it still gets every
   * core the requests leave idle. It goes through coreutils' nice, so a command that does not exist fails
   * as an exit (127), not as a spawn error; without /usr/bin/nice it runs at normal priority.
   */
  background?: boolean;
  timeoutMs?: number;
  killGraceMs?: number;
}

export class ToolError extends Error {
  constructor(
    message: string,
    readonly reason: "exit" | "timeout" | "aborted" | "spawn",
    readonly exitCode: number | null,
    readonly output: string,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

const TAIL_CHARS = 16_000;

/** coreutils' nice: starts a command at a lower priority with every thread it will have (it execs in place). */
export const NICE = "/usr/bin/nice";

/** Signals a whole process group; a group already gone is not an error. */
export function killGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group is alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function runTool(options: RunToolOptions): Promise<{ output: string; ms: number }> {
  const started = Date.now();
  const grace = options.killGraceMs ?? 10_000;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new ToolError(`${options.command} was not started: cancelled`, "aborted", null, ""));
      return;
    }
    const [command, args] = options.background && existsSync(NICE) ? [NICE, ["-n", "19", options.command, ...options.args]] : [options.command, options.args];
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, QT_QPA_PLATFORM: "offscreen", ...options.env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let stopReason: "timeout" | "aborted" | null = null;
    let killTimer: NodeJS.Timeout | undefined;
    let lastProgress = -1;
    const partial = { stdout: "", stderr: "" };

    const handleLine = (line: string) => {
      if (!line) return;
      options.onLine?.(line);
      const value = options.parser?.(line);
      if (value !== null && value !== undefined && value !== lastProgress) {
        lastProgress = value;
        options.onProgress?.(value);
      }
    };
    const take = (stream: "stdout" | "stderr") => (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output = (output + text).slice(-TAIL_CHARS);
      const lines = (partial[stream] + text).split(/\r\n|\r|\n/);
      partial[stream] = lines.pop() ?? "";
      lines.forEach(handleLine);
    };
    if (options.onStdout) child.stdout.on("data", options.onStdout);
    else child.stdout.on("data", take("stdout"));
    child.stderr.on("data", take("stderr"));

    const stop = (reason: "timeout" | "aborted") => {
      if (stopReason || child.pid === undefined) return;
      stopReason = reason;
      killGroup(child.pid, "SIGTERM");
      killTimer = setTimeout(() => child.pid !== undefined && killGroup(child.pid, "SIGKILL"), grace);
    };
    const onAbort = () => stop("aborted");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const timeout = options.timeoutMs ? setTimeout(() => stop("timeout"), options.timeoutMs) : undefined;
    if (child.pid !== undefined) options.onSpawn?.(child.pid);

    child.on("error", (error) => {
      clearTimeout(timeout);
      options.signal?.removeEventListener("abort", onAbort);
      reject(new ToolError(`${options.command} could not be started: ${error.message}`, "spawn", null, output));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timeout);
      clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
      handleLine(partial.stdout);
      handleLine(partial.stderr);
      // Whatever the tool left behind in its group goes with it.
      if (child.pid !== undefined) killGroup(child.pid, "SIGKILL");
      const ms = Date.now() - started;
      if (stopReason === "aborted") reject(new ToolError(`${options.command} was cancelled`, "aborted", code, output));
      else if (stopReason === "timeout") {
        reject(new ToolError(`${options.command} took longer than ${Math.round((options.timeoutMs ?? 0) / 1000)} s`, "timeout", code, output));
      } else if (code !== 0) {
        reject(new ToolError(`${options.command} ${options.args[0] ?? ""} failed (${code ?? signal})`, "exit", code, output));
      } else resolve({ output, ms });
    });
  });
}

/**
 * Splits a configured command template into an argument array, honouring single and double quotes
 * and backslash escapes, without a shell (no variables, globbing or pipes).
 */
export function splitCommandLine(template: string): string[] {
  const args: string[] = [];
  let current = "";
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < template.length) current += template[++i];
      else current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < template.length) {
      current += template[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) args.push(current);
      current = "";
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (quote) throw new Error("unbalanced quote in the command template");
  if (inWord) args.push(current);
  return args;
}

/** Replaces {name} placeholders in each argument; an unknown placeholder is an error. */
export function expandPlaceholders(args: string[], values: Record<string, string>): string[] {
  return args.map((arg) =>
    arg.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
      if (!(name in values)) throw new Error(`unknown placeholder {${name}} in the trainer command`);
      return values[name];
    }),
  );
}
