/**
 * A SOG v2 bundle's splats (PlayCanvas's format: meta.json and WebP images, one pixel per splat) as the early
 * splats draw them: centres, 3D covariances and colours in the viewer's world frame (the upright flip of
 * splat-bounds.ts applied), without spherical harmonics beyond the base colour. Pure: the images arrive decoded
 * as RGBA bytes (the browser's WebP decoder), so this is tested in Node against values encoded as the format says.
 */
import { SH_C0 } from "../../formats/gaussian";
import { SplatCenterSample } from "../splat-bounds";
import type { Bounds } from "../bounds";
import type { SogMeta } from "../../formats/sog";

export interface RgbaImage {
  width: number;
  height: number;
  /** width × height × 4 bytes, rows from the top, not premultiplied. */
  rgba: Uint8Array;
}

export interface SogSplats {
  count: number;
  /** x, y, z per splat, world frame. */
  centers: Float32Array;
  /** xx, xy, xz, yy, yz, zz per splat, world frame. */
  covariances: Float32Array;
  /** r, g, b, a per splat (display colour, opacity). */
  colors: Uint8Array;
  /** The framing box, as the viewer computes it from these splats (SplatCenterSample); null without opaque splats. */
  bounds: Bounds | null;
}


/** Inverse of the format's position transform sign(x)·ln(|x| + 1). */
function unlog(v: number): number {
  const e = Math.exp(Math.abs(v)) - 1;
  return v < 0 ? -e : e;
}

const clampByte = (v: number) => (v <= 0 ? 0 : v >= 1 ? 255 : Math.round(v * 255));

/** Decodes the splats; `images` by the file names meta.json gives. */
export function decodeSogSplats(meta: SogMeta, images: (name: string) => RgbaImage): SogSplats {
  const { count } = meta;
  const [low, high] = meta.means.files.map(images) as [RgbaImage, RgbaImage];
  const scales = images(meta.scales.files[0]);
  const quats = images(meta.quats.files[0]);
  const sh0 = images(meta.sh0.files[0]);
  for (const image of [low, high, scales, quats, sh0]) {
    if (image.width * image.height < count || image.rgba.length < image.width * image.height * 4) throw new Error("a SOG image is smaller than its splat count");
  }
  const centers = new Float32Array(count * 3);
  const covariances = new Float32Array(count * 6);
  const colors = new Uint8Array(count * 4);
  const sample = new SplatCenterSample(count);
  const { mins, maxs } = meta.means;
  const range = [0, 1, 2].map((axis) => (maxs[axis]! - mins[axis]!) / 65535);
  const scaleBook = meta.scales.codebook;
  const colorBook = meta.sh0.codebook;
  for (let i = 0; i < count; i++) {
    const o = i * 4;
    // Position: a 16-bit lerp (low and high bytes) between mins and maxs of the log-transformed position.
    const x = unlog(mins[0]! + range[0]! * (low.rgba[o]! | (high.rgba[o]! << 8)));
    const y = unlog(mins[1]! + range[1]! * (low.rgba[o + 1]! | (high.rgba[o + 1]! << 8)));
    const z = unlog(mins[2]! + range[2]! * (low.rgba[o + 2]! | (high.rgba[o + 2]! << 8)));
    // Rotation: the three smallest components of the unit quaternion (w, x, y, z), each in [−1/√2, 1/√2]
    // as a byte; alpha 252 + the index of the largest, which is positive and restores unit length.
    const tag = quats.rgba[o + 3]!;
    const q = [0, 0, 0, 0];
    if (tag >= 252) {
      const largest = tag - 252;
      let sum = 0;
      for (let k = 0, c = 0; k < 4; k++) {
        if (k === largest) continue;
        const v = ((quats.rgba[o + c]! / 255) * 2 - 1) / Math.SQRT2;
        q[k] = v;
        sum += v * v;
        c++;
      }
      q[largest] = Math.sqrt(Math.max(0, 1 - sum));
    } else {
      q[0] = 1;
    }
    const [qw, qx, qy, qz] = q as [number, number, number, number];
    // Σ = R S² Rᵀ with S = exp(log scales from the codebook).
    const sx = Math.exp(scaleBook[scales.rgba[o]!]!);
    const sy = Math.exp(scaleBook[scales.rgba[o + 1]!]!);
    const sz = Math.exp(scaleBook[scales.rgba[o + 2]!]!);
    const r00 = 1 - 2 * (qy * qy + qz * qz), r01 = 2 * (qx * qy - qw * qz), r02 = 2 * (qx * qz + qw * qy);
    const r10 = 2 * (qx * qy + qw * qz), r11 = 1 - 2 * (qx * qx + qz * qz), r12 = 2 * (qy * qz - qw * qx);
    const r20 = 2 * (qx * qz - qw * qy), r21 = 2 * (qy * qz + qw * qx), r22 = 1 - 2 * (qx * qx + qy * qy);
    const a0 = r00 * sx, a1 = r01 * sy, a2 = r02 * sz;
    const b0 = r10 * sx, b1 = r11 * sy, b2 = r12 * sz;
    const c0 = r20 * sx, c1 = r21 * sy, c2 = r22 * sz;
    const xx = a0 * a0 + a1 * a1 + a2 * a2;
    const xy = a0 * b0 + a1 * b1 + a2 * b2;
    const xz = a0 * c0 + a1 * c1 + a2 * c2;
    const yy = b0 * b0 + b1 * b1 + b2 * b2;
    const yz = b0 * c0 + b1 * c1 + b2 * c2;
    const zz = c0 * c0 + c1 * c1 + c2 * c2;
    // The upright flip (x, y, z) → (x, −y, −z): F Σ F with F = diag(1, −1, −1).
    centers.set([x, -y, -z], i * 3);
    covariances.set([xx, -xy, -xz, yy, yz, zz], i * 6);
    const opacity = sh0.rgba[o + 3]! / 255; // stored after the sigmoid
    colors[o] = clampByte(0.5 + SH_C0 * colorBook[sh0.rgba[o]!]!);
    colors[o + 1] = clampByte(0.5 + SH_C0 * colorBook[sh0.rgba[o + 1]!]!);
    colors[o + 2] = clampByte(0.5 + SH_C0 * colorBook[sh0.rgba[o + 2]!]!);
    colors[o + 3] = sh0.rgba[o + 3]!;
    if (i % sample.stride === 0) sample.add(x, y, z, opacity);
  }
  return { count, centers, covariances, colors, bounds: sample.bounds() };
}
