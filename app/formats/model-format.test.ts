import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  declaredTypeMismatchMessage,
  detectModelFormat,
  expectedKsplatLength,
  formatMatchesDeclaredType,
  isSplatFormat,
} from "./model-format";
import { SHARED_DATA } from "../../tests/setup/shared-data";

const DATA = SHARED_DATA;
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

  it("recognises SOG bundles by their first zip entry, and gzip streams as SPZ, whatever the name", () => {
    const zip = (name: string) => {
      const bytes = new Uint8Array(30 + name.length + 16);
      bytes.set([0x50, 0x4b, 3, 4]);
      new DataView(bytes.buffer).setUint16(26, name.length, true);
      bytes.set(new TextEncoder().encode(name), 30);
      return bytes;
    };
    expect(detectModelFormat(zip("means_l.webp"), "model.ply")).toBe("sog");
    expect(detectModelFormat(zip("meta.json"))).toBe("sog");
    expect(detectModelFormat(zip("word/document.xml"), "report.docx")).toBeNull();
    expect(detectModelFormat(zip("word/document.xml"), "model.sog")).toBe("sog"); // the name breaks the tie
    expect(detectModelFormat(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]), "model.ply")).toBe("spz");
  });

  it("needs the extension for formats without magic bytes", () => {
    const records = new Uint8Array(32 * 100).fill(7);
    expect(detectModelFormat(records, "scene.splat")).toBe("splat");
    expect(detectModelFormat(records)).toBeNull();
    expect(detectModelFormat(new TextEncoder().encode('{"asset":{"version":"2.0"}}'), "m.gltf")).toBe("gltf");
  });

  it("matches declared model types", () => {
    expect(formatMatchesDeclaredType("spz", "ply")).toBe(true);
    expect(formatMatchesDeclaredType("sog", "ply")).toBe(true);
    expect(formatMatchesDeclaredType("ksplat", "ply")).toBe(false);
    expect(formatMatchesDeclaredType("glb", "ply")).toBe(false);
    expect(formatMatchesDeclaredType("compressed-ply", "ply")).toBe(true);
    expect(formatMatchesDeclaredType("ply", "glb")).toBe(false);
    expect(formatMatchesDeclaredType(null, "ksplat")).toBe(false);
  });

  it("matches the splat types SuperSplat users declare (.spz, .splat, .sog) to their own format only", () => {
    expect(formatMatchesDeclaredType("spz", "spz")).toBe(true);
    expect(formatMatchesDeclaredType("splat", "splat")).toBe(true);
    expect(formatMatchesDeclaredType("sog", "sog")).toBe(true);
    expect(formatMatchesDeclaredType("ply", "spz")).toBe(false);
    expect(formatMatchesDeclaredType("spz", "sog")).toBe(false);
    expect(formatMatchesDeclaredType("ply", "splat")).toBe(false);
    expect(formatMatchesDeclaredType("splat", "ply")).toBe(false);
  });

  it("says what the declared type should look like, and what the bytes are when they are something else", () => {
    expect(declaredTypeMismatchMessage("spz", null)).toBe(
      "The file's contents are not a valid .spz model. A .spz is a gzip stream (SPZ 1–3) or starts with an NGSP header (SPZ 4).",
    );
    expect(declaredTypeMismatchMessage("splat", "compressed-ply")).toBe(
      "The file's contents are not a valid .splat model. Its bytes are a .compressed.ply file. A .splat is a run of 32-byte splat records without a header.",
    );
  });

  it("reads a .splat by its name before the loose .ksplat header check", () => {
    const records = new Uint8Array(4096 + 1024 + 64);
    records.set([0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0]); // also passes as a .ksplat header
    expect(detectModelFormat(records)).toBe("ksplat");
    expect(detectModelFormat(records, "model.splat")).toBe("splat");
  });

  it("tells splats from meshes", () => {
    expect(isSplatFormat("sog")).toBe(true);
    expect(isSplatFormat("compressed-ply")).toBe(true);
    expect(isSplatFormat("glb")).toBe(false);
    expect(isSplatFormat(null)).toBe(false);
  });
});

describe("expectedKsplatLength", () => {
  it("adds up the sections of a .ksplat from its headers", () => {
    expect(expectedKsplatLength(head("splats/guitar.ksplat"))).toBe(readFileSync(path.join(DATA, "splats/guitar.ksplat")).length);
    expect(expectedKsplatLength(head("splats/guitar.ply"))).toBeNull();
  });
});
