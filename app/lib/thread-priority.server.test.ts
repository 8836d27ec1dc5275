import { spawn } from "node:child_process";
import { once } from "node:events";
import { getPriority } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { threadNiceness } from "../../tests/setup/processes";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("lowerPriorityOfEveryThread", () => {
  it("sets the nice value of every thread the process has, and of the threads it starts after", async () => {
    // In a process of its own (a priority once lowered cannot be raised back), read from here at each step it
    // reports. The hash runs on libuv's thread pool after the call.
    const script = `
      import { pbkdf2 } from "node:crypto";
      import { lowerPriorityOfEveryThread } from "./app/lib/thread-priority.server.ts";
      console.log("started");
      process.stdin.once("data", () => {
        lowerPriorityOfEveryThread(7);
        pbkdf2("x", "y", 1, 8, "sha256", () => console.log("lowered"));
      });
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, stdio: ["pipe", "pipe", "inherit"] });
    try {
      const [started] = (await once(child.stdout, "data")) as [Buffer];
      expect(started.toString().trim()).toBe("started");
      expect(new Set(threadNiceness(child.pid!))).toEqual(new Set([getPriority()]));
      child.stdin.write("go\n");
      const [lowered] = (await once(child.stdout, "data")) as [Buffer];
      expect(lowered.toString().trim()).toBe("lowered");
      const after = threadNiceness(child.pid!);
      expect(after.length).toBeGreaterThan(1);
      expect(new Set(after)).toEqual(new Set([7]));
    } finally {
      child.kill();
    }
  });
});
