import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { detectModelFormat, formatMatchesDeclaredType } from "./model-format";

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../shared/data");
const head = (file: string) => new Uint8Array(readFileSync(path.join(DATA, file)).subarray(0, 64 * 1024));

describe("detectModelFormat", () => {
  it("recognises the real sample files by their bytes", () => {
    expect(detectModelFormat(head("models/cat.glb"))).toBe("glb");
    expect(detectModelFormat(head("splats/guitar.ply"))).toBe("ply");
    expect(detectModelFormat(head("splats/guitar.compressed.ply"))).toBe("compressed-ply");
    expect(detectModelFormat(head("splats/guitar.ksplat"))).toBe("ksplat");
    expect(detectModelFormat(head("splats/biker.spz"))).toBe("spz");
  });

  it("trusts bytes over a misleading extension, and returns null for junk", () => {
    expect(detectModelFormat(head("splats/guitar.ply"), "model.glb")).toBe("ply");
    expect(detectModelFormat(new TextEncoder().encode("hello world, not a model".repeat(300)), "x.ksplat")).toBeNull();
    expect(detectModelFormat(new Uint8Array(), "x.glb")).toBeNull();
    expect(detectModelFormat(new TextEncoder().encode("ply\nformat ascii 1.0\n"), "x.ply")).toBeNull(); // header never ends
  });

  it("matches declared model types", () => {
    expect(formatMatchesDeclaredType("compressed-ply", "ply")).toBe(true);
    expect(formatMatchesDeclaredType("ply", "glb")).toBe(false);
    expect(formatMatchesDeclaredType(null, "ksplat")).toBe(false);
  });
});
