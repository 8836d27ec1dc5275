/**
 * Software rasteriser for meshes (thumbnails): triangles clipped at the near plane, a z-buffer on 1/w,
 * perspective-correct attributes, bilinear base-colour textures, vertex colours and the base colour
 * factor, lit like the viewer's meshes — an even ambient term standing in for its room environment
 * plus a key light that moves with the camera (viewer-core.ts ensureMeshLighting) — then the
 * viewer's Neutral tone mapping and sRGB output. Opaque and masked triangles first; blended ones after,
 * over them, in sRGB (three blends in the canvas after its output conversion).
 */
import { cameraToWorldDirection, type RasterCamera } from "./camera";
import { backdropRows, linearToSrgb, neutralToneMap, srgbToLinear, type Backdrop, type Rgb } from "./color";
import type { MeshMaterial, MeshPrimitive, MeshScene, MeshTexture, TextureWrap } from "./mesh-scene";
import type { RenderedImage } from "./rendered-image";

/** Even light from every side (the room environment's share), and the key light's share at normal incidence. */
export const AMBIENT_LIGHT = 0.72;
export const KEY_LIGHT = 0.42;
/** The key light's direction in the camera's frame (the viewer's DirectionalLight at (0.5, 1, 0.75), a child of the camera). */
const KEY_DIRECTION_IN_CAMERA: [number, number, number] = [0.5, 1, 0.75];

interface Frame {
  width: number;
  height: number;
  /** Linear, tone-mapped colour of the opaque pass. */
  linear: Float32Array;
  covered: Uint8Array;
  /** 1/w of the nearest surface; 0 where nothing is drawn. */
  depth: Float32Array;
  /** sRGB display colour (after the opaque pass is resolved). */
  display: Float32Array;
  light: [number, number, number];
}

export function renderMesh(scene: MeshScene, camera: RasterCamera, background: Backdrop): RenderedImage {
  const { width, height } = camera;
  const frame: Frame = {
    width,
    height,
    linear: new Float32Array(width * height * 3),
    covered: new Uint8Array(width * height),
    depth: new Float32Array(width * height),
    display: new Float32Array(width * height * 3),
    light: cameraToWorldDirection(camera, KEY_DIRECTION_IN_CAMERA),
  };
  for (const primitive of scene.primitives) if (primitive.material.alphaMode !== "BLEND") drawPrimitive(frame, camera, primitive, false);
  const rows = backdropRows(background, height);
  for (let i = 0, n = width * height; i < n; i++) {
    const behind = rows[Math.floor(i / width)];
    for (let c = 0; c < 3; c++) frame.display[i * 3 + c] = frame.covered[i] ? linearToSrgb(frame.linear[i * 3 + c]) : behind[c];
  }
  for (const primitive of scene.primitives) if (primitive.material.alphaMode === "BLEND") drawPrimitive(frame, camera, primitive, true);
  // Coverage: the opaque and masked surfaces (blended ones draw over them, not counted).
  const alpha = Float32Array.from(frame.covered);
  return { width, height, rgb: frame.display, alpha };
}

/** A clipped polygon's vertex: clip-space x, y, z, w and its barycentric weights in the source triangle. */
const STRIDE = 7;

function drawPrimitive(frame: Frame, camera: RasterCamera, primitive: MeshPrimitive, blend: boolean): void {
  const { positions, indices } = primitive;
  const count = positions.length / 3;
  const m = camera.viewProjection;
  const clip = new Float64Array(count * 4);
  for (let v = 0; v < count; v++) {
    const x = positions[v * 3];
    const y = positions[v * 3 + 1];
    const z = positions[v * 3 + 2];
    clip[v * 4] = m[0] * x + m[4] * y + m[8] * z + m[12];
    clip[v * 4 + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
    clip[v * 4 + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
    clip[v * 4 + 3] = m[3] * x + m[7] * y + m[11] * z + m[15];
  }
  const input = new Float64Array(3 * STRIDE);
  const clipped = new Float64Array(4 * STRIDE);
  const shader = createShader(primitive, frame.light);
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const v = indices[t + k];
      input.set(clip.subarray(v * 4, v * 4 + 4), k * STRIDE);
      input[k * STRIDE + 4] = k === 0 ? 1 : 0;
      input[k * STRIDE + 5] = k === 1 ? 1 : 0;
      input[k * STRIDE + 6] = k === 2 ? 1 : 0;
    }
    const n = clipNear(input, clipped);
    for (let k = 1; k + 1 < n; k++) rasterize(frame, clipped, 0, k, k + 1, t, shader, primitive, blend);
  }
}

/** Sutherland–Hodgman against the near plane (z ≥ −w in clip space): 0, 3 or 4 vertices. */
function clipNear(input: Float64Array, output: Float64Array): number {
  let n = 0;
  for (let i = 0; i < 3; i++) {
    const a = i * STRIDE;
    const b = ((i + 1) % 3) * STRIDE;
    const da = input[a + 2] + input[a + 3];
    const db = input[b + 2] + input[b + 3];
    if (da >= 0) {
      for (let c = 0; c < STRIDE; c++) output[n * STRIDE + c] = input[a + c];
      n++;
    }
    if ((da >= 0) !== (db >= 0)) {
      const s = da / (da - db);
      for (let c = 0; c < STRIDE; c++) output[n * STRIDE + c] = input[a + c] + (input[b + c] - input[a + c]) * s;
      n++;
    }
  }
  return n;
}

type Shader = (triangle: number, b0: number, b1: number, b2: number, front: boolean, out: Float64Array) => void;

function rasterize(frame: Frame, poly: Float64Array, ia: number, ib: number, ic: number, triangle: number, shade: Shader, primitive: MeshPrimitive, blend: boolean): void {
  const { width, height } = frame;
  const a = ia * STRIDE;
  const b = ib * STRIDE;
  const c = ic * STRIDE;
  const wa = 1 / poly[a + 3];
  const wb = 1 / poly[b + 3];
  const wc = 1 / poly[c + 3];
  const ax = (poly[a] * wa * 0.5 + 0.5) * width;
  const ay = (0.5 - poly[a + 1] * wa * 0.5) * height;
  const bx = (poly[b] * wb * 0.5 + 0.5) * width;
  const by = (0.5 - poly[b + 1] * wb * 0.5) * height;
  const cx = (poly[c] * wc * 0.5 + 0.5) * width;
  const cy = (0.5 - poly[c + 1] * wc * 0.5) * height;
  const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  if (!(Math.abs(area) > 1e-12)) return;
  // Counter-clockwise in NDC (y up) is clockwise on screen (y down): a negative area.
  const front = (area < 0) !== primitive.mirrored;
  if (!front && !primitive.material.doubleSided) return;
  const minX = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
  const maxX = Math.min(width - 1, Math.ceil(Math.max(ax, bx, cx)));
  const minY = Math.max(0, Math.floor(Math.min(ay, by, cy)));
  const maxY = Math.min(height - 1, Math.ceil(Math.max(ay, by, cy)));
  if (minX > maxX || minY > maxY) return;
  const inv = 1 / area;
  // Edge functions as barycentric weights: w0 for a (edge b→c), w1 for b (edge c→a).
  const e0x = (by - cy) * inv;
  const e0y = (cx - bx) * inv;
  const e1x = (cy - ay) * inv;
  const e1y = (ax - cx) * inv;
  const out = new Float64Array(4);
  const { depth, covered, linear, display } = frame;
  const material = primitive.material;
  for (let py = minY; py <= maxY; py++) {
    const sy = py + 0.5;
    for (let px = minX; px <= maxX; px++) {
      const sx = px + 0.5;
      const l0 = (sx - bx) * e0x + (sy - by) * e0y;
      const l1 = (sx - cx) * e1x + (sy - cy) * e1y;
      const l2 = 1 - l0 - l1;
      if (l0 < 0 || l1 < 0 || l2 < 0) continue;
      const q0 = l0 * wa;
      const q1 = l1 * wb;
      const q2 = l2 * wc;
      const iw = q0 + q1 + q2;
      const index = py * width + px;
      if (iw <= depth[index]) continue;
      const p0 = q0 / iw;
      const p1 = q1 / iw;
      const p2 = q2 / iw;
      shade(
        triangle,
        p0 * poly[a + 4] + p1 * poly[b + 4] + p2 * poly[c + 4],
        p0 * poly[a + 5] + p1 * poly[b + 5] + p2 * poly[c + 5],
        p0 * poly[a + 6] + p1 * poly[b + 6] + p2 * poly[c + 6],
        front,
        out,
      );
      const alpha = out[3];
      if (blend) {
        const o = index * 3;
        for (let k = 0; k < 3; k++) display[o + k] = linearToSrgb(out[k]) * alpha + display[o + k] * (1 - alpha);
        continue;
      }
      if (material.alphaMode === "MASK" && alpha < material.alphaCutoff) continue;
      depth[index] = iw;
      covered[index] = 1;
      linear[index * 3] = out[0];
      linear[index * 3 + 1] = out[1];
      linear[index * 3 + 2] = out[2];
    }
  }
}

/** Returns the shading function of a primitive: writes linear, tone-mapped RGB and alpha to `out`. */
function createShader(primitive: MeshPrimitive, light: [number, number, number]): Shader {
  const { positions, normals, uvs, colors, indices, material } = primitive;
  const texel = new Float64Array(4);
  return (triangle, b0, b1, b2, front, out) => {
    const i0 = indices[triangle];
    const i1 = indices[triangle + 1];
    const i2 = indices[triangle + 2];
    let r = material.color[0];
    let g = material.color[1];
    let b = material.color[2];
    let a = material.color[3];
    if (colors) {
      r *= b0 * colors[i0 * 4] + b1 * colors[i1 * 4] + b2 * colors[i2 * 4];
      g *= b0 * colors[i0 * 4 + 1] + b1 * colors[i1 * 4 + 1] + b2 * colors[i2 * 4 + 1];
      b *= b0 * colors[i0 * 4 + 2] + b1 * colors[i1 * 4 + 2] + b2 * colors[i2 * 4 + 2];
      a *= b0 * colors[i0 * 4 + 3] + b1 * colors[i1 * 4 + 3] + b2 * colors[i2 * 4 + 3];
    }
    if (material.texture && uvs) {
      const u = b0 * uvs[i0 * 2] + b1 * uvs[i1 * 2] + b2 * uvs[i2 * 2];
      const v = b0 * uvs[i0 * 2 + 1] + b1 * uvs[i1 * 2 + 1] + b2 * uvs[i2 * 2 + 1];
      sampleTexture(material.texture, u, v, texel);
      r *= texel[0];
      g *= texel[1];
      b *= texel[2];
      a *= texel[3];
    }
    out[3] = a;
    if (material.unlit) {
      // Shown as stored, without tone mapping, as the viewer shows unlit materials (load-gltf.ts showUnlitAsStored).
      out[0] = r;
      out[1] = g;
      out[2] = b;
      return;
    }
    let nx: number;
    let ny: number;
    let nz: number;
    if (normals) {
      nx = b0 * normals[i0 * 3] + b1 * normals[i1 * 3] + b2 * normals[i2 * 3];
      ny = b0 * normals[i0 * 3 + 1] + b1 * normals[i1 * 3 + 1] + b2 * normals[i2 * 3 + 1];
      nz = b0 * normals[i0 * 3 + 2] + b1 * normals[i1 * 3 + 2] + b2 * normals[i2 * 3 + 2];
    } else {
      [nx, ny, nz] = faceNormal(positions, i0, i1, i2, primitive.mirrored);
    }
    const len = Math.hypot(nx, ny, nz) || 1;
    const side = front ? 1 : -1; // a double-sided face seen from behind is lit on its back
    const ndl = Math.max(0, (side * (nx * light[0] + ny * light[1] + nz * light[2])) / len);
    const shade = AMBIENT_LIGHT + KEY_LIGHT * ndl;
    const mapped = neutralToneMap([r * shade, g * shade, b * shade]);
    out[0] = mapped[0];
    out[1] = mapped[1];
    out[2] = mapped[2];
  };
}

function faceNormal(p: Float32Array, i0: number, i1: number, i2: number, mirrored: boolean): [number, number, number] {
  const ux = p[i1 * 3] - p[i0 * 3];
  const uy = p[i1 * 3 + 1] - p[i0 * 3 + 1];
  const uz = p[i1 * 3 + 2] - p[i0 * 3 + 2];
  const vx = p[i2 * 3] - p[i0 * 3];
  const vy = p[i2 * 3 + 1] - p[i0 * 3 + 1];
  const vz = p[i2 * 3 + 2] - p[i0 * 3 + 2];
  const s = mirrored ? -1 : 1;
  return [s * (uy * vz - uz * vy), s * (uz * vx - ux * vz), s * (ux * vy - uy * vx)];
}

function wrap(i: number, size: number, mode: TextureWrap): number {
  if (mode === "clamp") return i < 0 ? 0 : i >= size ? size - 1 : i;
  if (mode === "mirror") {
    const period = size * 2;
    const k = ((i % period) + period) % period;
    return k < size ? k : period - 1 - k;
  }
  return ((i % size) + size) % size;
}

/** Bilinear sample at (u, v) (texel centres at half-integers), linear RGBA into `out`. */
export function sampleTexture(texture: MeshTexture, u: number, v: number, out: Float64Array): void {
  const { width, height, texels } = texture;
  const x = u * width - 0.5;
  const y = v * height - 0.5;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const xa = wrap(x0, width, texture.wrapS);
  const xb = wrap(x0 + 1, width, texture.wrapS);
  const ya = wrap(y0, height, texture.wrapT) * width;
  const yb = wrap(y0 + 1, height, texture.wrapT) * width;
  const w00 = (1 - fx) * (1 - fy);
  const w10 = fx * (1 - fy);
  const w01 = (1 - fx) * fy;
  const w11 = fx * fy;
  const t00 = (ya + xa) * 4;
  const t10 = (ya + xb) * 4;
  const t01 = (yb + xa) * 4;
  const t11 = (yb + xb) * 4;
  for (let k = 0; k < 4; k++) out[k] = texels[t00 + k] * w00 + texels[t10 + k] * w10 + texels[t01 + k] * w01 + texels[t11 + k] * w11;
}

/** A material's base colour factor from sRGB components (tests, flat-coloured defaults). */
export function materialColorFromSrgb(srgb: Rgb, alpha = 1): MeshMaterial["color"] {
  return [srgbToLinear(srgb[0]), srgbToLinear(srgb[1]), srgbToLinear(srgb[2]), alpha];
}
