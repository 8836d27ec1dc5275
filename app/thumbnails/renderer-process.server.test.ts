// The renderer process over real IPC: one process serves job after job, a model it cannot draw fails alone, and a
// timeout, a crash or idleness ends the process so that the next job starts a new one.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { threadNiceness } from "../../tests/setup/processes";
import { SHARED_DATA } from "../../tests/setup/shared-data";
import { RendererProcess } from "./renderer-process.server";

const work = mkdtempSync(path.join(os.tmpdir(), "scanroom-renderer-"));
const cat = path.join(SHARED_DATA, "models/cat.glb");
const notAModel = path.join(work, "noise.glb");
const view = { camera: null, background: null };
const thumbnailJob = (name: string, input = cat) => ({ job: "thumbnail" as const, input, format: "glb" as const, output: path.join(work, name), view });
const isWebp = (file: string) => {
  const bytes = readFileSync(file);
  return bytes.subarray(0, 4).toString() === "RIFF" && bytes.subarray(8, 12).toString() === "WEBP";
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the renderer process", () => {
  it("renders job after job in one process; a file it cannot read fails alone", { timeout: 60_000 }, async () => {
    const renderer = new RendererProcess();
    try {
      writeFileSync(notAModel, Buffer.alloc(4096, 7));
      const first = await renderer.render(thumbnailJob("first.webp"), 30_000);
      expect(first).toMatchObject({ timings: { kind: "mesh" } });
      expect(isWebp(path.join(work, "first.webp"))).toBe(true);
      const pid = renderer.pid;

      expect(await renderer.render(thumbnailJob("noise.webp", notAModel), 30_000)).toEqual({ failed: expect.stringMatching(/glTF|GLB/) });
      const again = await renderer.render(thumbnailJob("again.webp"), 30_000);
      expect(again).toMatchObject({ timings: { kind: "mesh" } });
      expect(isWebp(path.join(work, "again.webp"))).toBe(true);
      expect(renderer.pid).toBe(pid);
      expect(renderer.started).toBe(1);
      // At the lowest CPU priority, in every thread.
      const niceness = threadNiceness(pid!);
      expect(niceness.length).toBeGreaterThan(1);
      expect(new Set(niceness)).toEqual(new Set([19]));
    } finally {
      renderer.close();
    }
  });

  it("a job past its time limit ends the process; jobs sent together run in turn and the next one starts a new process", { timeout: 60_000 }, async () => {
    const renderer = new RendererProcess();
    try {
      const [late, next] = await Promise.all([renderer.render(thumbnailJob("late.webp"), 1), renderer.render(thumbnailJob("next.webp"), 30_000)]);
      expect(late).toEqual({ failed: "timed out after 0 s" });
      expect(next).toMatchObject({ timings: { kind: "mesh" } });
      expect(renderer.started).toBe(2);
    } finally {
      renderer.close();
    }
  });

  it("a crash fails the job it was doing; idle, the process leaves", { timeout: 60_000 }, async () => {
    const renderer = new RendererProcess({ idleMs: 300 });
    try {
      await renderer.render(thumbnailJob("warm.webp"), 30_000);
      const crashed = renderer.render(thumbnailJob("crashed.webp"), 30_000);
      process.kill(renderer.pid!, "SIGKILL");
      expect(await crashed).toEqual({ failed: expect.stringMatching(/^stopped \(SIGKILL\)/) });

      expect(await renderer.render(thumbnailJob("after.webp"), 30_000)).toMatchObject({ timings: { kind: "mesh" } });
      const pid = renderer.pid!;
      expect(renderer.started).toBe(2);
      await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
      expect(renderer.pid).toBeUndefined();
    } finally {
      renderer.close();
    }
  });
});
