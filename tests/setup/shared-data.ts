import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The third-party sample models and splats (../shared/data beside the checkout, not in the repo: their
 * licences are their own). Where the checkout has no such neighbour — a clone in a temporary folder —
 * it is looked up beside the repository it was cloned from; SCANROOM_SHARED_DATA names it outright.
 */
function findSharedData(): string {
  if (process.env.SCANROOM_SHARED_DATA) return path.resolve(process.env.SCANROOM_SHARED_DATA);
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const beside = path.resolve(root, "../shared/data");
  if (existsSync(beside)) return beside;
  try {
    const origin = execFileSync("git", ["config", "--get", "remote.origin.url"], { cwd: root, encoding: "utf8" }).trim();
    const fromOrigin = path.resolve(origin.replace(/^file:\/\//, ""), "../shared/data");
    if (origin && existsSync(fromOrigin)) return fromOrigin;
  } catch {
    // not a git clone: fall through
  }
  return beside; // missing: the tests that read it say which file
}

export const SHARED_DATA = findSharedData();
