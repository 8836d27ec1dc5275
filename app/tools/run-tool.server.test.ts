import os from "node:os";
import { describe, expect, it } from "vitest";
import { expandPlaceholders, groupAlive, runTool, splitCommandLine, ToolError } from "./run-tool.server";

describe("running tools", () => {
  it("runs an argument array (no shell) and reads progress from its lines", async () => {
    const seen: number[] = [];
    const { output } = await runTool({
      command: process.execPath,
      args: ["-e", "for (const i of [1, 2, 3]) console.log(`Processed file [${i}/3]`); console.log('$HOME; echo not a shell')"],
      parser: (line) => (/\[(\d)\/3\]/.exec(line) ? Number(/\[(\d)\/3\]/.exec(line)![1]) / 3 : null),
      onProgress: (f) => seen.push(f),
    });
    expect(seen).toEqual([1 / 3, 2 / 3, 1]);
    expect(output).toContain("$HOME; echo not a shell");
  });

  it("stops the whole process group on cancel: SIGTERM first, SIGKILL after the grace period", async () => {
    const controller = new AbortController();
    let pid = 0;
    // A parent that ignores SIGTERM and a grandchild in the same group.
    const script = "process.on('SIGTERM', () => {}); require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log('ready'); setInterval(() => {}, 1000);";
    const running = runTool({
      command: process.execPath,
      args: ["-e", script],
      killGraceMs: 300,
      signal: controller.signal,
      onSpawn: (p) => (pid = p),
      onLine: (line) => line === "ready" && setTimeout(() => controller.abort(), 100),
    });
    const error = await running.catch((e) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect(error.reason).toBe("aborted");
    expect(pid).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(groupAlive(pid)).toBe(false);
  });

  it("reports a failing tool with its exit code and output, and a time limit as a timeout", async () => {
    const failed = await runTool({ command: process.execPath, args: ["-e", "console.error('bad input'); process.exit(3)"] }).catch((e) => e);
    expect(failed).toMatchObject({ reason: "exit", exitCode: 3 });
    expect(failed.output).toContain("bad input");
    const slow = await runTool({ command: process.execPath, args: ["-e", "setTimeout(() => {}, 10000)"], timeoutMs: 200, killGraceMs: 100 }).catch((e) => e);
    expect(slow.reason).toBe("timeout");
  });

  it("runs background work at the lowest CPU priority, in every thread of it, and other work as it is", async () => {
    // Each thread's nice value is field 19 of /proc/self/task/<tid>/stat (Linux keeps priorities per thread).
    const threadNiceness = [
      "-e",
      "const fs = require('fs'); setTimeout(() => console.log(JSON.stringify(fs.readdirSync('/proc/self/task').map((t) => Number(fs.readFileSync(`/proc/self/task/${t}/stat`, 'utf8').split(') ')[1].split(' ')[16])))), 50);",
    ];
    const background = await runTool({ command: process.execPath, args: threadNiceness, background: true });
    const niceness = JSON.parse(background.output.trim()) as number[];
    expect(niceness.length).toBeGreaterThan(1);
    expect(new Set(niceness)).toEqual(new Set([19]));
    const foreground = await runTool({ command: process.execPath, args: threadNiceness });
    expect(new Set(JSON.parse(foreground.output.trim()))).toEqual(new Set([os.getPriority()]));
  });

  it("splits a trainer template into arguments and fills its placeholders", () => {
    const args = splitCommandLine(`python3 "my trainer.py" --data {dataset} --out '{output}/run 1' --steps={iterations} a\\ b`);
    expect(args).toEqual(["python3", "my trainer.py", "--data", "{dataset}", "--out", "{output}/run 1", "--steps={iterations}", "a b"]);
    expect(expandPlaceholders(args, { dataset: "/w/d", output: "/w/o", iterations: "7000" })).toEqual([
      "python3", "my trainer.py", "--data", "/w/d", "--out", "/w/o/run 1", "--steps=7000", "a b",
    ]);
    expect(() => expandPlaceholders(["{nope}"], {})).toThrow(/unknown placeholder/);
    expect(() => splitCommandLine('echo "unbalanced')).toThrow(/quote/);
  });
});
