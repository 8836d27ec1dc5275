import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = mkdtempSync(path.join(os.tmpdir(), "scanroom-checkpoints-"));
process.env.STORAGE_DIR = path.join(root, "storage");
const { Checkpoints } = await import("./checkpoints.server");

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("mid-stage checkpoints", () => {
  it("resume a file saved under the same scope, and never one a run of another version or other inputs left behind", async () => {
    const dir = path.join(root, "work");
    mkdirSync(path.join(dir, "train"), { recursive: true });
    const checkpoints = new Checkpoints("item-1", dir);
    const file = path.join(dir, "train/checkpoint.bin");

    writeFileSync(file, "version 5");
    await checkpoints.saveMidStage("splat-aaaa", "train/checkpoint.bin");
    expect(await checkpoints.restoreMidStage("splat-aaaa", "train/checkpoint.bin")).toBe(true);
    expect(readFileSync(file, "utf8")).toBe("version 5");

    // The stage's version or inputs changed: the local file is not this run's, and storage has none for the scope.
    expect(await checkpoints.restoreMidStage("splat-bbbb", "train/checkpoint.bin")).toBe(false);
    expect(existsSync(file)).toBe(false);

    // Another machine (no local file) gets the stored one of its scope back.
    expect(await checkpoints.restoreMidStage("splat-aaaa", "train/checkpoint.bin")).toBe(true);
    expect(readFileSync(file, "utf8")).toBe("version 5");
  });
});
