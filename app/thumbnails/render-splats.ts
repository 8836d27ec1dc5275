/**
 * Software gaussian-splat renderer (thumbnails), the 3DGS way (EWA splatting): every splat's 3D covariance
 * R·S·Sᵀ·Rᵀ is turned into the camera's frame and projected through the Jacobian of the perspective
 * division into a 2D covariance, widened by 0.3 px² (the anti-aliasing low-pass Spark also applies as
 * its default blur); its inverse, the conic, gives each pixel's weight. Splats are sorted by depth and
 * blended front to back until a pixel is opaque. Colours are blended as stored (sRGB), like Spark: the base
 * colour clamped to 0..1 plus the spherical harmonics' view-dependent term where the file has one.
 */
import type { RasterCamera } from "./camera";
import { shBasis, shRestCount } from "~/formats/gaussian";
import { backdropRows, type Backdrop } from "./color";
import type { RenderedImage } from "./rendered-image";
import type { SplatCloud } from "./splat-cloud";

/** Added to the 2D covariance's diagonal, px² (3DGS's and Spark's default). */
export const SPLAT_BLUR = 0.3;
/** How many standard deviations a splat's footprint reaches. */
const EXTENT_SIGMAS = 3;
/** Centres outside the view by more than this share of the half field of view keep a clamped Jacobian (3DGS). */
const FRUSTUM_MARGIN = 1.3;
const MIN_ALPHA = 1 / 255;
const MAX_ALPHA = 0.99;
/** A pixel whose remaining transmittance is below this takes no more splats. */
const OPAQUE_TRANSMITTANCE = 1e-4;

export function renderSplats(cloud: SplatCloud, camera: RasterCamera, background: Backdrop): RenderedImage {
  const { width, height, fx, fy, cx: principalX, cy: principalY, near } = camera;
  const v = camera.view;
  const { positions, scales, rotations, opacities } = cloud;
  // Per visible splat: pixel centre, conic (A, B, C), footprint half-extent, depth.
  const visible = new Uint32Array(cloud.count);
  const depth = new Float32Array(cloud.count);
  const centre = new Float32Array(cloud.count * 2);
  const conic = new Float32Array(cloud.count * 3);
  const extent = new Float32Array(cloud.count * 2);
  const limX = FRUSTUM_MARGIN * camera.tanHalfX;
  const limY = FRUSTUM_MARGIN * camera.tanHalfY;
  let n = 0;
  for (let i = 0; i < cloud.count; i++) {
    const opacity = opacities[i];
    if (!(opacity >= MIN_ALPHA)) continue;
    const px = positions[i * 3];
    const py = positions[i * 3 + 1];
    const pz = positions[i * 3 + 2];
    const tx = v[0] * px + v[4] * py + v[8] * pz + v[12];
    const ty = v[1] * px + v[5] * py + v[9] * pz + v[13];
    const tz = v[2] * px + v[6] * py + v[10] * pz + v[14];
    const d = -tz; // three's camera looks down −Z
    if (!(d > near)) continue;
    const sx = principalX + (fx * tx) / d;
    const sy = principalY - (fy * ty) / d;
    // M = R·S (columns: the splat's axes scaled by its standard deviations), then W·M in the camera's frame.
    const qw = rotations[i * 4];
    const qx = rotations[i * 4 + 1];
    const qy = rotations[i * 4 + 2];
    const qz = rotations[i * 4 + 3];
    const s0 = scales[i * 3];
    const s1 = scales[i * 3 + 1];
    const s2 = scales[i * 3 + 2];
    const r00 = 1 - 2 * (qy * qy + qz * qz);
    const r01 = 2 * (qx * qy - qw * qz);
    const r02 = 2 * (qx * qz + qw * qy);
    const r10 = 2 * (qx * qy + qw * qz);
    const r11 = 1 - 2 * (qx * qx + qz * qz);
    const r12 = 2 * (qy * qz - qw * qx);
    const r20 = 2 * (qx * qz - qw * qy);
    const r21 = 2 * (qy * qz + qw * qx);
    const r22 = 1 - 2 * (qx * qx + qy * qy);
    const m00 = r00 * s0, m01 = r01 * s1, m02 = r02 * s2;
    const m10 = r10 * s0, m11 = r11 * s1, m12 = r12 * s2;
    const m20 = r20 * s0, m21 = r21 * s1, m22 = r22 * s2;
    // Rows of the camera rotation W.
    const c00 = v[0] * m00 + v[4] * m10 + v[8] * m20;
    const c01 = v[0] * m01 + v[4] * m11 + v[8] * m21;
    const c02 = v[0] * m02 + v[4] * m12 + v[8] * m22;
    const c10 = v[1] * m00 + v[5] * m10 + v[9] * m20;
    const c11 = v[1] * m01 + v[5] * m11 + v[9] * m21;
    const c12 = v[1] * m02 + v[5] * m12 + v[9] * m22;
    const c20 = v[2] * m00 + v[6] * m10 + v[10] * m20;
    const c21 = v[2] * m01 + v[6] * m11 + v[10] * m21;
    const c22 = v[2] * m02 + v[6] * m12 + v[10] * m22;
    // Jacobian of (x, y)_px w.r.t. the camera-frame point, with the 3DGS frustum clamp on x/d, y/d.
    const ux = Math.min(limX, Math.max(-limX, tx / d));
    const uy = Math.min(limY, Math.max(-limY, ty / d));
    const j00 = fx / d;
    const j02 = (fx * ux) / d;
    const j11 = -fy / d;
    const j12 = (-fy * uy) / d;
    // T = J·W·M (2×3); Σ2D = T·Tᵀ.
    const a0 = j00 * c00 + j02 * c20;
    const a1 = j00 * c01 + j02 * c21;
    const a2 = j00 * c02 + j02 * c22;
    const b0 = j11 * c10 + j12 * c20;
    const b1 = j11 * c11 + j12 * c21;
    const b2 = j11 * c12 + j12 * c22;
    const sxx = a0 * a0 + a1 * a1 + a2 * a2 + SPLAT_BLUR;
    const sxy = a0 * b0 + a1 * b1 + a2 * b2;
    const syy = b0 * b0 + b1 * b1 + b2 * b2 + SPLAT_BLUR;
    const det = sxx * syy - sxy * sxy;
    if (!(det > 0)) continue;
    const ex = EXTENT_SIGMAS * Math.sqrt(sxx);
    const ey = EXTENT_SIGMAS * Math.sqrt(syy);
    if (sx + ex < 0 || sx - ex > width || sy + ey < 0 || sy - ey > height) continue;
    visible[n] = i;
    depth[n] = d;
    centre[n * 2] = sx;
    centre[n * 2 + 1] = sy;
    conic[n * 3] = syy / det;
    conic[n * 3 + 1] = -sxy / det;
    conic[n * 3 + 2] = sxx / det;
    extent[n * 2] = ex;
    extent[n * 2 + 1] = ey;
    n++;
  }

  const order = sortByDepth(depth.subarray(0, n));
  const color = new Float32Array(width * height * 3);
  const transmittance = new Float32Array(width * height).fill(1);
  const colors = cloud.harmonics ? viewColors(cloud, camera.eye, visible.subarray(0, n)) : cloud.colors;
  for (let k = 0; k < n; k++) {
    const j = order[k];
    const i = visible[j];
    const cx = centre[j * 2];
    const cy = centre[j * 2 + 1];
    const A = conic[j * 3];
    const B = conic[j * 3 + 1];
    const C = conic[j * 3 + 2];
    const opacity = opacities[i];
    const r = colors[i * 3];
    const g = colors[i * 3 + 1];
    const b = colors[i * 3 + 2];
    const x0 = Math.max(0, Math.floor(cx - extent[j * 2]));
    const x1 = Math.min(width - 1, Math.ceil(cx + extent[j * 2]));
    const y0 = Math.max(0, Math.floor(cy - extent[j * 2 + 1]));
    const y1 = Math.min(height - 1, Math.ceil(cy + extent[j * 2 + 1]));
    for (let y = y0; y <= y1; y++) {
      const dy = y + 0.5 - cy;
      const row = y * width;
      for (let x = x0; x <= x1; x++) {
        const index = row + x;
        const t = transmittance[index];
        if (t < OPAQUE_TRANSMITTANCE) continue;
        const dx = x + 0.5 - cx;
        const power = -0.5 * (A * dx * dx + C * dy * dy) - B * dx * dy;
        if (power > 0) continue;
        let alpha = opacity * Math.exp(power);
        if (alpha < MIN_ALPHA) continue;
        if (alpha > MAX_ALPHA) alpha = MAX_ALPHA;
        const w = t * alpha;
        color[index * 3] += w * r;
        color[index * 3 + 1] += w * g;
        color[index * 3 + 2] += w * b;
        transmittance[index] = t * (1 - alpha);
      }
    }
  }
  const alpha = new Float32Array(width * height);
  const rows = backdropRows(background, height);
  for (let index = 0, count = width * height; index < count; index++) {
    const t = transmittance[index];
    alpha[index] = 1 - t;
    const behind = rows[Math.floor(index / width)];
    for (let c = 0; c < 3; c++) {
      const value = color[index * 3 + c] + t * behind[c];
      color[index * 3 + c] = value < 0 ? 0 : value > 1 ? 1 : value;
    }
  }
  return { width, height, rgb: color, alpha };
}

/**
 * The colour of each splat in `visible` seen from `eye` (the others are left at 0): the base colour plus Σ basis_k(direction) · coefficient_k, the direction
 * from the eye to the splat turned back into the file's frame (the upright flip is a half turn about X), clamped
 * to 0..1 as a WebGL colour is before it blends.
 */
function viewColors(cloud: SplatCloud, eye: readonly [number, number, number], visible: Uint32Array): Float32Array {
  const { degree, coefficients } = cloud.harmonics!;
  const n = shRestCount(degree);
  const basis = new Float32Array(n);
  const out = new Float32Array(cloud.count * 3);
  const { positions, colors } = cloud;
  for (const i of visible) {
    const dx = positions[i * 3] - eye[0];
    const dy = eye[1] - positions[i * 3 + 1];
    const dz = eye[2] - positions[i * 3 + 2];
    const len = Math.hypot(dx, dy, dz) || 1;
    shBasis(dx / len, dy / len, dz / len, degree, basis);
    let r = colors[i * 3];
    let g = colors[i * 3 + 1];
    let b = colors[i * 3 + 2];
    const base = i * n * 3;
    for (let k = 0; k < n; k++) {
      const w = basis[k];
      r += w * coefficients[base + k * 3];
      g += w * coefficients[base + k * 3 + 1];
      b += w * coefficients[base + k * 3 + 2];
    }
    out[i * 3] = r < 0 ? 0 : r > 1 ? 1 : r;
    out[i * 3 + 1] = g < 0 ? 0 : g > 1 ? 1 : g;
    out[i * 3 + 2] = b < 0 ? 0 : b > 1 ? 1 : b;
  }
  return out;
}

/** Indices of `depth` (all positive) from nearest to farthest: two 16-bit LSD radix passes over the float bits. */
export function sortByDepth(depth: Float32Array): Uint32Array {
  const n = depth.length;
  const keys = new Uint32Array(depth.buffer, depth.byteOffset, n); // positive floats order as their bits do
  let from = new Uint32Array(n);
  let to = new Uint32Array(n);
  for (let i = 0; i < n; i++) from[i] = i;
  const counts = new Uint32Array(65536);
  for (const shift of [0, 16]) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(keys[from[i]] >>> shift) & 0xffff]++;
    let sum = 0;
    for (let b = 0; b < 65536; b++) {
      const c = counts[b];
      counts[b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const index = from[i];
      to[counts[(keys[index] >>> shift) & 0xffff]++] = index;
    }
    [from, to] = [to, from];
  }
  return from;
}
