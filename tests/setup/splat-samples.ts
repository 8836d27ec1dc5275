import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { parsePlyHeader, plyRecordBytes, readPlyHeader } from "~/formats/ply";
import { SHARED_DATA } from "./shared-data";

/**
 * Small real splat files in the formats SuperSplat users bring (.spz v3, .splat, .sog), made from the
 * sample guitar.ply once and kept in the system's temporary folder (not in the repository): .spz and
 * .sog by `@playcanvas/splat-transform` on the CPU, .splat by `plyToSplat` below (splat-transform
 * reads .splat but does not write it).
 */
export interface SplatSamples {
  /** SPZ version 3: a gzip stream, the version Spark decodes itself. */
  spz: string;
  splat: string;
  sog: string;
  /** Splats in each (guitar.ply's count). */
  splats: number;
}

export const SAMPLE_SOURCE = path.join(SHARED_DATA, "splats/guitar.ply");
const GUITAR_SPLATS = 90_854;

/** splat-transform's package folder (it exports only its library; the CLI and package.json sit beside it). */
function splatTransformRoot(): string {
  return path.resolve(path.dirname(createRequire(import.meta.url).resolve("@playcanvas/splat-transform")), "..");
}

/** The zeroth spherical-harmonic basis constant: colour = 0.5 + SH_C0 · f_dc. */
const SH_C0 = 0.28209479177387814;
const toByte = (value: number) => Math.max(0, Math.min(255, Math.round(value)));

/**
 * Writes a standard 3DGS binary .ply (float properties x, y, z, f_dc_0‥2, opacity, scale_0‥2,
 * rot_0‥3) as an antimatter15 .splat: per splat 32 bytes — position (3 × float32), linear scale
 * (3 × float32, exp of the log scale), colour RGBA (4 × uint8; alpha = sigmoid(opacity)) and the
 * normalised rotation w, x, y, z (4 × uint8, q · 128 + 128).
 */
export function plyToSplat(ply: Buffer): Buffer {
  const header = readPlyHeader(ply);
  if (!header || header.format !== "binary_little_endian") throw new Error("not a binary little-endian .ply");
  const vertex = header.elements.find((element) => element.name === "vertex");
  const count = vertex?.count ?? 0;
  const properties: string[] = [];
  for (const property of vertex?.properties ?? []) {
    if (property.type !== "float") throw new Error(`only float properties are written (${property.type} ${property.name})`);
    properties.push(property.name);
  }
  const column = (name: string) => {
    const index = properties.indexOf(name);
    if (index < 0) throw new Error(`the .ply has no ${name}`);
    return index * 4;
  };
  const [x, y, z] = ["x", "y", "z"].map(column);
  const dc = ["f_dc_0", "f_dc_1", "f_dc_2"].map(column);
  const scale = ["scale_0", "scale_1", "scale_2"].map(column);
  const rot = ["rot_0", "rot_1", "rot_2", "rot_3"].map(column);
  const opacity = column("opacity");
  const stride = properties.length * 4;
  const out = Buffer.alloc(count * 32);
  for (let i = 0; i < count; i++) {
    const at = header.bodyOffset + i * stride;
    const f = (offset: number) => ply.readFloatLE(at + offset);
    const to = i * 32;
    [x, y, z].forEach((offset, axis) => out.writeFloatLE(f(offset), to + axis * 4));
    scale.forEach((offset, axis) => out.writeFloatLE(Math.exp(f(offset)), to + 12 + axis * 4));
    dc.forEach((offset, channel) => (out[to + 24 + channel] = toByte((0.5 + SH_C0 * f(offset)) * 255)));
    out[to + 27] = toByte(255 / (1 + Math.exp(-f(opacity))));
    const q = rot.map(f);
    const length = Math.hypot(...q) || 1;
    q.forEach((value, k) => (out[to + 28 + k] = toByte((value / length) * 128 + 128)));
  }
  return out;
}

let cached: SplatSamples | null = null;

/** The sample files, made on first use (a few seconds) and reused by later runs and test files. */
export function splatSamples(): SplatSamples {
  if (cached) return cached;
  const source = readFileSync(SAMPLE_SOURCE);
  const version = JSON.parse(readFileSync(path.join(splatTransformRoot(), "package.json"), "utf8")).version;
  const dir = path.join(os.tmpdir(), `scanroom-splat-samples-${version}-${source.length}`);
  const files = { spz: path.join(dir, "guitar.spz"), splat: path.join(dir, "guitar.splat"), sog: path.join(dir, "guitar.sog") };
  if (!Object.values(files).every((file) => existsSync(file))) {
    const work = mkdtempSync(path.join(os.tmpdir(), "scanroom-splat-samples-"));
    const cli = path.join(splatTransformRoot(), "bin/cli.mjs");
    const run = (...args: string[]) => execFileSync(process.execPath, [cli, "--quiet", "--no-tty", "--overwrite", ...args], { stdio: "pipe" });
    run(SAMPLE_SOURCE, "--spz-version", "3", path.join(work, "guitar.spz"));
    run("--gpu", "cpu", SAMPLE_SOURCE, path.join(work, "guitar.sog"));
    writeFileSync(path.join(work, "guitar.splat"), plyToSplat(source));
    // Test files running side by side may both get here: the first rename wins, the others use its files.
    try {
      renameSync(work, dir);
    } catch {
      rmSync(work, { recursive: true, force: true });
      if (!Object.values(files).every((file) => existsSync(file))) throw new Error(`${dir} is incomplete: remove it`);
    }
  }
  cached = { ...files, splats: GUITAR_SPLATS };
  return cached;
}

/**
 * guitar.ply with every `every`-th splat only, as the same binary .ply, written once to the system's temporary
 * folder: a real splat that a software rasteriser draws in a fraction of the time (for journeys about the pages
 * around a splat, not about drawing one).
 */
export function thinnedSplatPly(every: number): { file: string; splats: number } {
  const source = readFileSync(SAMPLE_SOURCE);
  const header = parsePlyHeader(source);
  const [vertex] = header.elements;
  const recordBytes = vertex && header.elements.length === 1 ? plyRecordBytes(vertex) : null;
  if (!recordBytes || vertex.name !== "vertex") throw new Error(`${SAMPLE_SOURCE}: expected one fixed-size vertex element`);
  const splats = Math.ceil(vertex.count / every);
  // Named guitar.ply, as its source: a model made from it is called "guitar".
  const dir = path.join(os.tmpdir(), `scanroom-guitar-every-${every}-${source.length}`);
  const file = path.join(dir, "guitar.ply");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const head = Buffer.from(`${header.text.replace(/^element vertex \d+$/m, `element vertex ${splats}`)}end_header\n`, "latin1");
    const body = Buffer.alloc(splats * recordBytes);
    for (let i = 0; i < splats; i++) source.copy(body, i * recordBytes, header.bodyOffset + i * every * recordBytes, header.bodyOffset + (i * every + 1) * recordBytes);
    const work = `${file}.${process.pid}`;
    writeFileSync(work, Buffer.concat([head, body]));
    renameSync(work, file);
  }
  return { file, splats };
}
