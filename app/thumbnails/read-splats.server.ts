/**
 * Decodes every splat format we accept (.ply, .compressed.ply, .ksplat, .spz, .splat, .sog) through
 * `@playcanvas/splat-transform`'s readers, in process, into a SplatCloud in the viewer's world frame:
 * the upright half turn about X (app/viewer/splat-bounds.ts) applied to centres and rotations; the spherical
 * harmonics, where the file has them, are kept as they are (the renderer evaluates them in the file's frame).
 */
import type { DataTable } from "@playcanvas/splat-transform";
import { SH_C0, shRestCount } from "~/formats/gaussian";
import type { ModelFormat } from "~/formats/model-format";
import { SplatCenterSample } from "~/viewer/splat-bounds";
import type { SplatCloud, SplatHarmonics } from "./splat-cloud";

/** The file name ending splat-transform reads each format by. */
const FILE_NAMES: Partial<Record<ModelFormat, string>> = {
  ply: "model.ply",
  "compressed-ply": "model.compressed.ply",
  ksplat: "model.ksplat",
  spz: "model.spz",
  splat: "model.splat",
  sog: "model.sog",
};

/** The library's documented defaults; none matters for reading but `lodSelect` (all levels of an LCC file). */
const READ_OPTIONS = { iterations: 10, lodSelect: [], unbundled: false, lodChunkCount: 512, lodChunkExtent: 16 };

export class SplatDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SplatDecodeError";
  }
}

export async function readSplatCloud(bytes: Uint8Array, format: ModelFormat): Promise<SplatCloud> {
  const filename = FILE_NAMES[format];
  if (!filename) throw new SplatDecodeError(`.${format} is not a splat format`);
  // Loaded on demand: the library (4 MB with the PlayCanvas engine) takes seconds to import, which GLBs need not pay.
  const { convertToSpace, getInputFormat, MemoryReadFileSystem, readFile, Transform } = await import("@playcanvas/splat-transform");
  // The frame splat-transform's PLY reader reports (its readers convert every format to it).
  const plySpace = new Transform().fromEulers(0, 0, 180);
  const fileSystem = new MemoryReadFileSystem();
  fileSystem.set(filename, bytes);
  let table: DataTable;
  try {
    const tables = await readFile({ filename, inputFormat: getInputFormat(filename), options: READ_OPTIONS, params: [], fileSystem });
    if (!tables[0]) throw new Error("no splats in the file");
    table = tables[0].transform.equals(plySpace) ? tables[0] : convertToSpace(tables[0], plySpace);
  } catch (error) {
    throw new SplatDecodeError(`the .${format} file could not be read: ${(error as Error).message}`);
  }
  return splatCloudFromTable(table);
}

function column(table: DataTable, name: string): ArrayLike<number> {
  const found = table.getColumnByName(name);
  if (!found) throw new SplatDecodeError(`the splats have no "${name}" values`);
  return found.data;
}

/** The columns of a 3DGS table (x, y, z, scale_i as logs, rot_0..3 as w, x, y, z, f_dc_i, opacity as a logit) in the viewer's frame. */
export function splatCloudFromTable(table: DataTable): SplatCloud {
  const count = table.numRows;
  const [x, y, z] = ["x", "y", "z"].map((n) => column(table, n));
  const scale = ["scale_0", "scale_1", "scale_2"].map((n) => column(table, n));
  const rot = ["rot_0", "rot_1", "rot_2", "rot_3"].map((n) => column(table, n));
  const dc = ["f_dc_0", "f_dc_1", "f_dc_2"].map((n) => column(table, n));
  const logit = column(table, "opacity");
  const positions = new Float32Array(count * 3);
  const scales = new Float32Array(count * 3);
  const rotations = new Float32Array(count * 4);
  const colors = new Float32Array(count * 3);
  const opacities = new Float32Array(count);
  const sample = new SplatCenterSample(count);
  for (let i = 0; i < count; i++) {
    const opacity = 1 / (1 + Math.exp(-logit[i]));
    if (i % sample.stride === 0) sample.add(x[i], y[i], z[i], opacity);
    // The half turn about X: (x, y, z) → (x, −y, −z); as a quaternion (1, 0, 0, 0) · q.
    positions[i * 3] = x[i];
    positions[i * 3 + 1] = -y[i];
    positions[i * 3 + 2] = -z[i];
    for (let k = 0; k < 3; k++) {
      scales[i * 3 + k] = Math.exp(scale[k][i]);
      const c = 0.5 + SH_C0 * dc[k][i];
      colors[i * 3 + k] = c < 0 ? 0 : c > 1 ? 1 : c;
    }
    const qw = rot[0][i];
    const qx = rot[1][i];
    const qy = rot[2][i];
    const qz = rot[3][i];
    const len = Math.hypot(qw, qx, qy, qz) || 1;
    // The half turn (w, x, y, z) = (0, 1, 0, 0) times q by the Hamilton product: (−qx, qw, −qz, qy).
    rotations[i * 4] = -qx / len;
    rotations[i * 4 + 1] = qw / len;
    rotations[i * 4 + 2] = -qz / len;
    rotations[i * 4 + 3] = qy / len;
    opacities[i] = opacity;
  }
  const bounds = sample.bounds();
  if (!bounds) throw new SplatDecodeError("the file holds no visible splat");
  const harmonics = harmonicsOf(table);
  return { count, positions, scales, rotations, colors, opacities, bounds, ...(harmonics ? { harmonics } : {}) };
}

/** The highest complete degree of f_rest_* columns (9, 24 or 45 of them), gathered splat by splat. */
function harmonicsOf(table: DataTable): SplatHarmonics | undefined {
  if (!table.hasColumn("f_rest_0")) return undefined;
  const degree = ([3, 2, 1] as const).find((d) => table.hasColumn(`f_rest_${3 * shRestCount(d) - 1}`));
  if (!degree) return undefined;
  const n = shRestCount(degree);
  const count = table.numRows;
  const coefficients = new Float32Array(count * n * 3);
  // splat-transform (as 3DGS's PLY) names channel c's coefficient k f_rest_{c·n + k}.
  for (let c = 0; c < 3; c++) {
    for (let k = 0; k < n; k++) {
      const values = column(table, `f_rest_${c * n + k}`);
      for (let i = 0; i < count; i++) coefficients[(i * n + k) * 3 + c] = values[i];
    }
  }
  return { degree, coefficients };
}
