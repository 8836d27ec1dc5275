/**
 * Public real captures for the real-capture bench (issue 38), read from a git-ignored folder
 * (SCAN_REAL_DIR, default .cache/real-captures/<set>/). None of them is in the repository; each is public:
 *
 * - `fox`: NVlabs/instant-ngp `data/nerf/fox` — 50 phone photos (1080×1920) of a fox figurine on a table in
 *   a room. Licence: NVIDIA Source Code License-NC (non-commercial research and evaluation) of that
 *   repository. Its transforms.json holds the poses instant-ngp's COLMAP run found (a reference, not ground
 *   truth). Put as <dir>/fox/images/*.jpg and <dir>/fox/transforms.json.
 * - Strecha's sets (C. Strecha et al., "On Benchmarking Camera Calibration and Multi-View Stereo for High
 *   Resolution Imagery", CVPR 2008), as openMVG/SfM_quality_evaluation redistributes them (lossless JPEG,
 *   3072×2048, for research use): `Herz-Jesus-P25` (25 photos of a church facade and its courtyard),
 *   `castle-P30` (30 photos walking around a castle's inner courtyard, cameras facing out at its walls), with
 *   ground-truth cameras (<set>/gt_dense_cameras/<image>.camera: K, radial distortion, R camera→world,
 *   camera centre, size; metres). Put as <dir>/<set>/images/*.jpg and <dir>/<set>/gt_dense_cameras/.
 * - A video set: <dir>/<set>/video.mp4 with a SOURCE.txt whose first line says where it comes from and under
 *   what licence (issue 34 item 4, the longest video SPEC allows: `fox-long`, 180 s of 1080×1920 H.264 at
 *   30 fps made by `scripts/real-capture-video.sh` from the fox's 50 photos in capture order, 300 distinct
 *   frames — the photos and motion-compensated frames between them). No known cameras: its frames are not
 *   the photos.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

type Vec3 = [number, number, number];

export interface TrueCamera {
  /** Camera centre in the truth's frame. */
  centre: Vec3;
  /** Camera → world rotation (row-major 3×3), the camera's axes as COLMAP's: x right, y down, z forward. */
  cameraToWorld: number[];
}

export interface RealCapture {
  name: string;
  source: string;
  licence: string;
  /** Photo files in capture order (empty for a video set). */
  photos: string[];
  /** The video of a video set. */
  video: string | null;
  /** Known cameras by photo file name, and what they are. */
  truth: Map<string, TrueCamera> | null;
  truthKind: string;
  /** Units the truth's positions are in. */
  units: string;
}

export const REAL_CAPTURE_DIR = path.resolve(process.env.SCAN_REAL_DIR ?? ".cache/real-captures");

function photosIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /\.(jpe?g|png)$/i.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

/** Strecha's .camera files: K (3 lines), distortion (1), R camera→world (3), centre (1), size (1). */
function strechaCameras(dir: string): Map<string, TrueCamera> {
  const out = new Map<string, TrueCamera>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".camera"))) {
    const numbers = readFileSync(path.join(dir, file), "utf8").trim().split(/\s+/).map(Number);
    if (numbers.length < 23 || numbers.some((n) => !Number.isFinite(n))) throw new Error(`${file} is not a Strecha camera file`);
    out.set(file.replace(/\.camera$/, ""), { cameraToWorld: numbers.slice(12, 21), centre: numbers.slice(21, 24) as Vec3 });
  }
  return out;
}

/** instant-ngp's transforms.json: camera → world 4×4 in NeRF's convention (x right, y up, z back). */
function nerfCameras(file: string): Map<string, TrueCamera> {
  const json = JSON.parse(readFileSync(file, "utf8")) as { frames: Array<{ file_path: string; transform_matrix: number[][] }> };
  const out = new Map<string, TrueCamera>();
  for (const frame of json.frames) {
    const m = frame.transform_matrix;
    // COLMAP's camera axes are NeRF's with y and z flipped.
    const cameraToWorld = [0, 1, 2].flatMap((r) => [m[r][0], -m[r][1], -m[r][2]]);
    out.set(path.basename(frame.file_path), { cameraToWorld, centre: [m[0][3], m[1][3], m[2][3]] });
  }
  return out;
}

/** The sets found under REAL_CAPTURE_DIR (SCAN_REAL_SETS, comma-separated, picks some). */
export function realCaptures(): RealCapture[] {
  const wanted = (process.env.SCAN_REAL_SETS ?? "fox,Herz-Jesus-P25,castle-P30,fox-long").split(",").map((s) => s.trim()).filter(Boolean);
  const found: RealCapture[] = [];
  for (const name of wanted) {
    const dir = path.join(REAL_CAPTURE_DIR, name);
    if (existsSync(path.join(dir, "video.mp4"))) {
      const about = existsSync(path.join(dir, "SOURCE.txt")) ? readFileSync(path.join(dir, "SOURCE.txt"), "utf8").split("\n")[0] : "no SOURCE.txt";
      found.push({ name, source: about, licence: "see SOURCE.txt", photos: [], video: path.join(dir, "video.mp4"), truth: null, truthKind: "none", units: "" });
      continue;
    }
    if (!existsSync(path.join(dir, "images"))) continue;
    if (existsSync(path.join(dir, "transforms.json"))) {
      found.push({
        name,
        source: "NVlabs/instant-ngp data/nerf/fox",
        licence: "NVIDIA Source Code License-NC",
        photos: photosIn(path.join(dir, "images")),
        video: null,
        truth: nerfCameras(path.join(dir, "transforms.json")),
        truthKind: "instant-ngp's own COLMAP poses",
        units: "units",
      });
    } else {
      found.push({
        name,
        source: "Strecha et al. 2008 via openMVG/SfM_quality_evaluation",
        licence: "research use",
        photos: photosIn(path.join(dir, "images")),
        video: null,
        truth: existsSync(path.join(dir, "gt_dense_cameras")) ? strechaCameras(path.join(dir, "gt_dense_cameras")) : null,
        truthKind: "ground truth",
        units: "m",
      });
    }
  }
  return found;
}
