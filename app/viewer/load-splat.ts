/**
 * Gaussian-splat decoding through Spark (@sparkjsdev/spark). Spark is imported on demand so
 * pages that only show glTF never download its ~3 MB bundle (it inlines its WASM decoder).
 */
import type { Object3D, WebGLRenderer } from "three";
import type { ModelFormat } from "../formats/model-format";
import { EMPTY_OR_CORRUPTED, toError } from "./errors";
import type { LoadedModel } from "./loaded-model";
import { markSplatObject } from "./object-flags";
import { SPLAT_UPRIGHT_QUATERNION, SplatCenterSample } from "./splat-bounds";
import { unsupportedSplatReason } from "./splat-support";
import { withTimeout } from "./with-timeout";

type SparkModule = typeof import("@sparkjsdev/spark");
type SplatMesh = InstanceType<SparkModule["SplatMesh"]>;

let sparkModule: Promise<SparkModule> | null = null;

export function loadSpark(): Promise<SparkModule> {
  sparkModule ??= import("@sparkjsdev/spark").catch((error: unknown) => {
    sparkModule = null;
    throw toError(error, "The splat renderer could not be loaded");
  });
  return sparkModule;
}

export { isSplatFormat, SPLAT_FORMATS } from "../formats/model-format";

/** Spark's file type for each of our splat formats. */
function sparkFileType(spark: SparkModule, format: ModelFormat) {
  const { SplatFileType } = spark;
  switch (format) {
    case "ply":
    case "compressed-ply":
      return SplatFileType.PLY;
    case "ksplat":
      return SplatFileType.KSPLAT;
    case "spz":
      return SplatFileType.SPZ;
    case "splat":
      return SplatFileType.SPLAT;
    case "sog":
      return SplatFileType.PCSOGSZIP;
    default:
      throw new Error(`Not a splat format: ${format}`);
  }
}

/** Spark's SparkRenderer as the viewer sees it: the fields read are public in Spark's typings. */
export type SparkHandle = Object3D & {
  dispose(): void;
  /** Set when Spark needs another render (sort finished, splats changed). */
  dirty: boolean;
  /** A depth readback + worker sort is in flight. */
  sorting: boolean;
  sortDirty: boolean;
  /** Splats drawn by the last completed sort. */
  activeSplats: number;
  /** The splats on display (those of the last completed sort): which objects' splats it holds. */
  display: { mapping: ReadonlyArray<{ node: Object3D }> };
};

/**
 * The splats Spark draws of `object` (a SplatMesh, or a group holding some): its last completed sort's, when
 * that sort included them, else 0 — after a model is swapped for another (a coarse level for the whole model),
 * Spark keeps drawing the previous sort until the new one is done.
 */
export function splatsDrawnOf(spark: SparkHandle, object: Object3D): number {
  const shown = spark.display.mapping.some(({ node }) => {
    for (let at: Object3D | null = node; at; at = at.parent) if (at === object) return true;
    return false;
  });
  return shown ? spark.activeSplats : 0;
}

/** The renderer object Spark needs in the scene to draw SplatMeshes. */
export async function createSparkRenderer(renderer: WebGLRenderer, splatBudget?: number): Promise<SparkHandle> {
  const spark = await loadSpark();
  // lodSplatCount bounds the splats drawn from models that have a level-of-detail tree (see loadSplat).
  return new spark.SparkRenderer({ renderer, ...(splatBudget ? { lodSplatCount: splatBudget } : {}) });
}

/**
 * Resolves when Spark has no sort in flight (or after `maxMs`). Disposing a SparkRenderer or its
 * WebGL context mid-sort makes Spark's internal promises reject unhandled ("Worker terminate").
 */
export async function whenSparkIdle(spark: SparkHandle, maxMs = 2_000): Promise<void> {
  const deadline = performance.now() + maxMs;
  while (spark.sorting && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Samples the decoded splats' centres for the framing bounds (splat-bounds.ts has the rule). */
function sampleCenters(mesh: SplatMesh): SplatCenterSample {
  const count = mesh.packedSplats?.numSplats ?? mesh.numSplats ?? 0;
  const sample = new SplatCenterSample(count);
  const packed = mesh.packedSplats;
  if (packed) {
    for (let i = 0; i < count; i += sample.stride) {
      const { center, opacity } = packed.getSplat(i);
      sample.add(center.x, center.y, center.z, opacity);
    }
  } else {
    mesh.forEachSplat((index, center, _scales, _quaternion, opacity) => {
      if (index % sample.stride === 0) sample.add(center.x, center.y, center.z, opacity);
    });
  }
  return sample;
}

/** How long a splat's decode may take unless the viewer is told otherwise (the early decode's too). */
export const DEFAULT_SPLAT_TIMEOUT_MS = 60_000;

/** No splat container we read stores a splat in fewer bytes (.sog ≈ 12.5, .spz ≈ 15). */
const MIN_BYTES_PER_SPLAT = 10;

/** Whether a file this big can hold more splats than the budget (only then is Spark's LoD path taken). */
export function mayExceedBudget(fileBytes: number, splatBudget: number | undefined): splatBudget is number {
  return !!splatBudget && fileBytes / MIN_BYTES_PER_SPLAT > splatBudget;
}

export interface LoadSplatOptions {
  bytes: ArrayBuffer;
  format: ModelFormat;
  fileName?: string;
  timeoutMs: number;
  /**
   * Models with more splats get a level-of-detail tree, built in Spark's worker, so that no more
   * than this many are drawn per frame (device-profile.ts). The full set stays for bounds and picking.
   */
  splatBudget?: number;
  onProgress?: (loaded: number, total: number | null) => void;
}

export async function loadSplat({ bytes, format, fileName, timeoutMs, splatBudget, onProgress }: LoadSplatOptions): Promise<LoadedModel> {
  const unsupported = unsupportedSplatReason(new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 16)), format);
  if (unsupported) throw new Error(unsupported);
  const spark = await loadSpark();
  const mesh = new spark.SplatMesh({
    fileBytes: new Uint8Array(bytes),
    fileType: sparkFileType(spark, format),
    fileName,
    ...(mayExceedBudget(bytes.byteLength, splatBudget) ? { lod: true, nonLod: true, lodAbove: splatBudget } : {}),
    onProgress: (event: ProgressEvent) => onProgress?.(event.loaded, event.lengthComputable ? event.total : null),
  });
  // Keep a late rejection (after a timeout) from surfacing as an unhandled rejection.
  mesh.initialized.catch(() => undefined);
  let timedOut = false;
  try {
    await withTimeout(
      mesh.initialized,
      timeoutMs,
      `Decoding the splat file took longer than ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}; the file may be corrupted`,
      () => {
        timedOut = true;
      },
    );
  } catch (error) {
    mesh.dispose();
    if (timedOut) throw error;
    // Spark's decoder reports problems tersely ("Truncated ksplat file", "Expected 90854 splats, got 44636").
    const detail = toError(error, "").message;
    throw new Error(detail ? `${EMPTY_OR_CORRUPTED} (${detail})` : EMPTY_OR_CORRUPTED);
  }
  const splatCount = mesh.packedSplats?.numSplats ?? mesh.numSplats ?? 0;
  const bounds = splatCount > 0 ? sampleCenters(mesh).bounds() : null;
  if (!bounds) {
    mesh.dispose();
    throw new Error(EMPTY_OR_CORRUPTED);
  }
  mesh.quaternion.set(...SPLAT_UPRIGHT_QUATERNION); // the upright flip (splat-bounds.ts)
  markSplatObject(mesh); // picking: its hits have no face
  return { kind: "splat", object: mesh, bounds, splatCount, dispose: () => mesh.dispose() };
}
