/**
 * The clean-up editor's splats (browser-safe, no Node APIs): a standard 3DGS binary little-endian
 * .ply decoded into arrays (centres, colours, opacity, scales, rotations) beside its raw rows, and
 * written back with only the kept splats. Every property of a row is kept as it was (higher-order
 * spherical harmonics included): deleting floaters never changes the splats that stay.
 */
import { SH_C0, type GaussianArrays } from "../formats/gaussian";
import { readPlyHeader } from "../formats/ply";

const REQUIRED = ["x", "y", "z", "f_dc_0", "f_dc_1", "f_dc_2", "opacity", "scale_0", "scale_1", "scale_2", "rot_0", "rot_1", "rot_2", "rot_3"] as const;

/** A .ply's splats in the file's own coordinates (the arrays as GaussianArrays says), beside its raw rows. */
export interface SplatCloud extends GaussianArrays {
  /** Property names of a row, in file order (every one a float32). */
  properties: string[];
  /** Bytes per row. */
  stride: number;
  /** count rows of `stride` bytes, as in the file. */
  rows: Uint8Array;
}

export class SplatFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SplatFileError";
  }
}

/** Reads a 3DGS .ply; throws SplatFileError with the reason for anything else. */
export function decodeSplatCloud(buffer: ArrayBuffer): SplatCloud {
  const bytes = new Uint8Array(buffer);
  const header = readPlyHeader(bytes);
  if (!header) throw new SplatFileError("not a .ply file");
  const all = header.elements.flatMap((element) => element.properties);
  const notFloat = all.find((property) => property.list || (property.type !== "float" && property.type !== "float32"));
  if (notFloat) throw new SplatFileError(`property ${notFloat.name} is not a float`);
  const { format, bodyOffset } = header;
  if (format !== "binary_little_endian") throw new SplatFileError(`ply format ${format || "unknown"}, not binary_little_endian`);
  const [vertex, ...others] = header.elements;
  const count = vertex?.name === "vertex" ? vertex.count : -1;
  if (others.length || !Number.isInteger(count) || count < 0) throw new SplatFileError("a splat .ply has one element, vertex");
  const properties = vertex.properties.map((property) => property.name);
  for (const name of REQUIRED) if (!properties.includes(name)) throw new SplatFileError(`missing property ${name}`);
  const stride = properties.length * 4;
  if (bytes.length - bodyOffset !== count * stride) throw new SplatFileError(`body has ${bytes.length - bodyOffset} bytes, ${count} splats need ${count * stride}`);
  const rows = bytes.slice(bodyOffset);
  const view = new DataView(rows.buffer);
  const at = Object.fromEntries(REQUIRED.map((name) => [name, properties.indexOf(name) * 4])) as Record<(typeof REQUIRED)[number], number>;
  const positions = new Float32Array(count * 3);
  const colors = new Float32Array(count * 3);
  const opacities = new Float32Array(count);
  const scales = new Float32Array(count * 3);
  const rotations = new Float32Array(count * 4);
  const read = (row: number, offset: number) => view.getFloat32(row + offset, true);
  for (let i = 0; i < count; i++) {
    const row = i * stride;
    positions[i * 3] = read(row, at.x);
    positions[i * 3 + 1] = read(row, at.y);
    positions[i * 3 + 2] = read(row, at.z);
    colors[i * 3] = clamp01(0.5 + SH_C0 * read(row, at.f_dc_0));
    colors[i * 3 + 1] = clamp01(0.5 + SH_C0 * read(row, at.f_dc_1));
    colors[i * 3 + 2] = clamp01(0.5 + SH_C0 * read(row, at.f_dc_2));
    opacities[i] = 1 / (1 + Math.exp(-read(row, at.opacity)));
    scales[i * 3] = Math.exp(read(row, at.scale_0));
    scales[i * 3 + 1] = Math.exp(read(row, at.scale_1));
    scales[i * 3 + 2] = Math.exp(read(row, at.scale_2));
    rotations[i * 4] = read(row, at.rot_0);
    rotations[i * 4 + 1] = read(row, at.rot_1);
    rotations[i * 4 + 2] = read(row, at.rot_2);
    rotations[i * 4 + 3] = read(row, at.rot_3);
  }
  return { count, properties, stride, rows, positions, colors, opacities, scales, rotations };
}

const clamp01 = (value: number) => (value < 0 ? 0 : value > 1 ? 1 : value);

/** The f_dc value that shows as `value` (0–1) in the base colour. */
const shDcFor = (value: number) => (value - 0.5) / SH_C0;

/**
 * A standard 3DGS binary .ply of the splats whose `deleted` flag is 0, rows copied byte for byte.
 * With `tint`, the splats flagged there are recoloured (the editor's display of a selection); a
 * file to save never passes it.
 */
export function encodeSplatCloud(cloud: SplatCloud, deleted: Uint8Array, tint?: { flags: Uint8Array; color: [number, number, number] }): ArrayBuffer {
  let kept = 0;
  for (let i = 0; i < cloud.count; i++) if (!deleted[i]) kept += 1;
  const header = new TextEncoder().encode(
    `ply\nformat binary_little_endian 1.0\nelement vertex ${kept}\n${cloud.properties.map((name) => `property float ${name}\n`).join("")}end_header\n`,
  );
  const out = new Uint8Array(header.length + kept * cloud.stride);
  out.set(header, 0);
  let offset = header.length;
  for (let i = 0; i < cloud.count; i++) {
    if (deleted[i]) continue;
    out.set(cloud.rows.subarray(i * cloud.stride, (i + 1) * cloud.stride), offset);
    offset += cloud.stride;
  }
  if (tint) {
    const view = new DataView(out.buffer);
    const dc = ["f_dc_0", "f_dc_1", "f_dc_2"].map((name) => cloud.properties.indexOf(name) * 4);
    const rest = cloud.properties.flatMap((name, index) => (name.startsWith("f_rest_") ? [index * 4] : []));
    let row = header.length;
    for (let i = 0; i < cloud.count; i++) {
      if (deleted[i]) continue;
      if (tint.flags[i]) {
        dc.forEach((at, channel) => view.setFloat32(row + at, shDcFor(tint.color[channel]), true));
        for (const at of rest) view.setFloat32(row + at, 0, true);
      }
      row += cloud.stride;
    }
  }
  return out.buffer;
}
