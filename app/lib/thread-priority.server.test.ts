import { execFileSync } from "node:child_process";
import { getPriority } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("lowerPriorityOfEveryThread", () => {
  it("sets the nice value of every thread the process has, and of the threads it starts after", () => {
    // In a process of its own (a priority once lowered cannot be raised back). Each thread's nice value is field
    // 19 of /proc/self/task/<tid>/stat; the hash below runs on libuv's thread pool after the call.
    const script = `
      import { pbkdf2Sync, pbkdf2 } from "node:crypto";
      import { readdirSync, readFileSync } from "node:fs";
      import { lowerPriorityOfEveryThread } from "./app/lib/thread-priority.server.ts";
      const niceness = () => readdirSync("/proc/self/task").map((t) => Number(readFileSync(\`/proc/self/task/\${t}/stat\`, "utf8").split(") ")[1].split(" ")[16]));
      const before = niceness();
      lowerPriorityOfEveryThread(7);
      pbkdf2("x", "y", 1, 8, "sha256", () => console.log(JSON.stringify({ before, after: niceness() })));
    `;
    const output = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
    const { before, after } = JSON.parse(output.trim()) as { before: number[]; after: number[] };
    expect(new Set(before)).toEqual(new Set([getPriority()]));
    expect(after.length).toBeGreaterThan(1);
    expect(new Set(after)).toEqual(new Set([7]));
  });
});
