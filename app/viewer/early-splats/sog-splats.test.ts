import { describe, expect, it } from "vitest";
import { parseSogMeta, type SogMeta } from "../../formats/sog";
import { decodeSogSplats, type RgbaImage } from "./sog-splats";
import { backToFront } from "./splat-draw";

// Splats encoded as the SOG v2 format says (splat-transform's writer): positions log-transformed and quantised
// to 16 bits between mins and maxs, log scales and colour coefficients as indices into 256-entry codebooks,
// rotations as their three smallest components with the largest one's index in alpha, opacity after the sigmoid.
interface Splat {
  position: [number, number, number];
  logScale: [number, number, number];
  /** w, x, y, z, unit length. */
  rotation: [number, number, number, number];
  /** f_dc coefficients. */
  dc: [number, number, number];
  opacity: number;
}

const log = (x: number) => Math.sign(x) * Math.log(Math.abs(x) + 1);
const codebook = (from: number, to: number) => Array.from({ length: 256 }, (_, i) => from + ((to - from) * i) / 255);
const nearest = (book: number[], v: number) => book.reduce((best, entry, i) => (Math.abs(entry - v) < Math.abs(book[best]! - v) ? i : best), 0);

function encode(splats: Splat[], width = 4): { meta: SogMeta; images: Map<string, RgbaImage> } {
  const height = Math.ceil(splats.length / width);
  const image = () => ({ width, height, rgba: new Uint8Array(width * height * 4) });
  const [low, high, scales, quats, sh0] = [image(), image(), image(), image(), image()];
  const logged = splats.map((s) => s.position.map(log));
  const mins = [0, 1, 2].map((axis) => Math.min(...logged.map((p) => p[axis]!)));
  const maxs = [0, 1, 2].map((axis) => Math.max(...logged.map((p) => p[axis]!)));
  const scaleBook = codebook(-6, 1);
  const colorBook = codebook(-2, 2);
  splats.forEach((splat, i) => {
    const o = i * 4;
    for (let axis = 0; axis < 3; axis++) {
      const q = Math.round(((logged[i]![axis]! - mins[axis]!) / (maxs[axis]! - mins[axis]! || 1)) * 65535);
      low.rgba[o + axis] = q & 255;
      high.rgba[o + axis] = q >> 8;
      scales.rgba[o + axis] = nearest(scaleBook, splat.logScale[axis]!);
      sh0.rgba[o + axis] = nearest(colorBook, splat.dc[axis]!);
    }
    low.rgba[o + 3] = high.rgba[o + 3] = scales.rgba[o + 3] = 255;
    sh0.rgba[o + 3] = Math.round(splat.opacity * 255);
    const largest = splat.rotation.reduce((best, v, k) => (Math.abs(v) > Math.abs(splat.rotation[best]!) ? k : best), 0);
    const sign = Math.sign(splat.rotation[largest]!) || 1;
    const rest = splat.rotation.map((v) => v * sign).filter((_, k) => k !== largest);
    rest.forEach((v, c) => (quats.rgba[o + c] = Math.round(255 * (v * Math.SQRT2 * 0.5 + 0.5))));
    quats.rgba[o + 3] = 252 + largest;
  });
  const meta = parseSogMeta({
    version: 2,
    count: splats.length,
    means: { mins, maxs, files: ["means_l.webp", "means_u.webp"] },
    scales: { codebook: scaleBook, files: ["scales.webp"] },
    quats: { files: ["quats.webp"] },
    sh0: { codebook: colorBook, files: ["sh0.webp"] },
  });
  const images = new Map([
    ["means_l.webp", low],
    ["means_u.webp", high],
    ["scales.webp", scales],
    ["quats.webp", quats],
    ["sh0.webp", sh0],
  ]);
  return { meta, images };
}

/** Σ = R S² Rᵀ of a splat, in the file's frame: xx, xy, xz, yy, yz, zz. */
function covariance({ rotation: [w, x, y, z], logScale }: Splat): number[] {
  const r = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
  const s2 = logScale.map((v) => Math.exp(2 * v));
  const at = (i: number, j: number) => r[i]![0]! * r[j]![0]! * s2[0]! + r[i]![1]! * r[j]![1]! * s2[1]! + r[i]![2]! * r[j]![2]! * s2[2]!;
  return [at(0, 0), at(0, 1), at(0, 2), at(1, 1), at(1, 2), at(2, 2)];
}

const unit = (q: number[]) => {
  const n = Math.hypot(...q);
  return q.map((v) => v / n) as Splat["rotation"];
};

const SPLATS: Splat[] = [
  { position: [0.5, -1.25, 2], logScale: [-2, -3, -4], rotation: [1, 0, 0, 0], dc: [1.2, -0.4, 0], opacity: 0.9 },
  { position: [-3, 0.75, -0.2], logScale: [-1, -1.5, -5], rotation: unit([0.3, 0.8, -0.4, 0.2]), dc: [-1.5, 0.3, 1.7], opacity: 0.5 },
  { position: [10, 4, -7], logScale: [-4, -2.5, -2.5], rotation: unit([-0.2, 0.1, 0.3, -0.9]), dc: [0, 0, 0], opacity: 0.05 },
  { position: [0, 0, 0], logScale: [-3, -3, -3], rotation: unit([0.5, -0.5, 0.5, 0.5]), dc: [0.6, 0.6, -0.6], opacity: 1 },
  { position: [1, 2, 3], logScale: [0, -6, -1], rotation: unit([0.1, 0.2, 0.9, 0.3]), dc: [2, -2, 0.1], opacity: 0.3 },
];

describe("decodeSogSplats", () => {
  const { meta, images } = encode(SPLATS);
  const decoded = decodeSogSplats(meta, (name) => images.get(name)!);

  it("gives each splat's centre in the viewer's frame (upright flip), within the 16-bit quantisation", () => {
    let worst = 0;
    SPLATS.forEach((splat, i) => {
      const [x, y, z] = splat.position;
      const expected = [x, -y, -z];
      for (let axis = 0; axis < 3; axis++) worst = Math.max(worst, Math.abs(decoded.centers[i * 3 + axis]! - expected[axis]!) / (1 + Math.abs(expected[axis]!)));
    });
    process.stdout.write(`SOG centres: worst relative error ${worst.toExponential(2)} (bound 1e-3)\n`);
    expect(worst).toBeLessThan(1e-3);
  });

  it("gives each splat's covariance R S² Rᵀ, flipped upright (F Σ F), within the codebooks' and the rotation bytes' precision", () => {
    let worst = 0;
    SPLATS.forEach((splat, i) => {
      const [xx, xy, xz, yy, yz, zz] = covariance(splat);
      const expected = [xx, -xy, -xz, yy, yz, zz];
      const scale = Math.max(...expected.map(Math.abs));
      for (let k = 0; k < 6; k++) worst = Math.max(worst, Math.abs(decoded.covariances[i * 6 + k]! - expected[k]!) / scale);
    });
    process.stdout.write(`SOG covariances: worst error ${(worst * 100).toFixed(2)} % of the largest entry (bound 8 %)\n`);
    expect(worst).toBeLessThan(0.08);
  });

  it("gives colours 0.5 + C0·f_dc and the stored opacity", () => {
    SPLATS.forEach((splat, i) => {
      for (let c = 0; c < 3; c++) {
        const expected = Math.min(255, Math.max(0, (0.5 + 0.28209479177387814 * splat.dc[c]!) * 255));
        expect(Math.abs(decoded.colors[i * 4 + c]! - expected), `splat ${i} channel ${c}`).toBeLessThanOrEqual(2);
      }
      expect(decoded.colors[i * 4 + 3]).toBe(Math.round(splat.opacity * 255));
    });
  });

  it("frames the splats the viewer frames: floaters (opacity below 0.1) left out", () => {
    const { bounds } = decoded;
    expect(bounds).not.toBeNull();
    // The nearly transparent splat at (10, 4, −7) does not stretch the box.
    expect(bounds!.max[0]).toBeLessThan(1.1);
    expect(bounds!.min[0]).toBeCloseTo(-3, 2);
  });

  it("rejects what is not SOG v2 or images too small for the count", () => {
    expect(() => parseSogMeta({ version: 1, count: 3 })).toThrow("not a SOG v2 meta.json");
    expect(() => parseSogMeta({ ...meta, scales: { codebook: [1, 2], files: ["scales.webp"] } })).toThrow("bad scales");
    const small = new Map(images);
    small.set("quats.webp", { width: 2, height: 1, rgba: new Uint8Array(8) });
    expect(() => decodeSogSplats(meta, (name) => small.get(name)!)).toThrow("smaller than its splat count");
  });
});

describe("backToFront", () => {
  it("orders splats from the farthest to the nearest along the view direction", () => {
    const centers = new Float32Array([0, 0, -1, 0, 0, -5, 0, 0, -3, 4, 0, -2]);
    // A camera at the origin looking down −Z.
    expect([...backToFront(centers, 4, [0, 0, 0], [0, 0, -1])]).toEqual([1, 2, 3, 0]);
  });
});
