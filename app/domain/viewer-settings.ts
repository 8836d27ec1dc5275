import { z } from "zod";
import { cameraViewSchema, type CameraView } from "./annotation-schemas";

/**
 * An item's viewer settings (PATCH /v1/item/{id}/settings, SPEC §7): the opening camera, background,
 * autorotate, length units and real-world scale. Stored as JSON with the schema version it was written
 * with (Item.settings + Item.settingsVersion) and migrated on read, so a row written by any release
 * reads in the current shape (the SuperSplat habit, STYLE.md). Pure: no database here.
 */
export const VIEWER_SETTINGS_VERSION = 1;

export const LENGTH_UNITS = ["m", "cm", "mm", "in", "ft"] as const;
export type LengthUnit = (typeof LENGTH_UNITS)[number];

export const hexColorSchema = z
  .string()
  .trim()
  .regex(/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i, "must be a hex colour such as #1e1f22");

export interface ViewerSettings {
  version: typeof VIEWER_SETTINGS_VERSION;
  /** Where the viewer opens; null frames the model automatically. */
  camera: CameraView | null;
  /** CSS hex colour behind the model; null uses the viewer's default. */
  background: string | null;
  autorotate: boolean;
  /** Units the measuring tool shows lengths in. */
  units: LengthUnit;
  /** Real-world metres per model unit (set from one known length); null when the scale is unknown. */
  meters_per_unit: number | null;
}

export const DEFAULT_VIEWER_SETTINGS: ViewerSettings = {
  version: VIEWER_SETTINGS_VERSION,
  camera: null,
  background: null,
  autorotate: false,
  units: "m",
  meters_per_unit: null,
};

const metersPerUnitSchema = z.number().finite().positive("must be a positive number").max(1e6, "must be at most 1000000");

/** The body of PATCH /v1/item/{id}/settings: any subset of the fields; null resets one to its default. */
export const viewerSettingsPatchSchema = z
  .object({
    camera: cameraViewSchema.nullable().optional(),
    background: hexColorSchema.nullable().optional(),
    autorotate: z.boolean().optional(),
    units: z.enum(LENGTH_UNITS, { errorMap: () => ({ message: `must be one of ${LENGTH_UNITS.join(", ")}` }) }).optional(),
    meters_per_unit: metersPerUnitSchema.nullable().optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "nothing to update" });
export type ViewerSettingsPatch = z.infer<typeof viewerSettingsPatchSchema>;

type Stored = Record<string, unknown>;

/**
 * One step per version: STEPS[n] turns a version-n object into version n+1. Add a step whenever the shape
 * changes, and bump VIEWER_SETTINGS_VERSION.
 * - 0 → 1: JSON without a version, as the first schema documented it (vectors as `{x, y, z}` objects, see the
 *   init migration's Annotation.position) — cameras become `[x, y, z]` arrays, the shape annotations use.
 */
const STEPS: Record<number, (stored: Stored) => Stored> = {
  0: (s) => ({ ...s, camera: vectorsToArrays(s.camera) }),
};

function vectorsToArrays(camera: unknown): unknown {
  if (!camera || typeof camera !== "object") return camera;
  const asArray = (v: unknown) => {
    if (Array.isArray(v)) return v;
    const o = v as { x?: unknown; y?: unknown; z?: unknown } | null;
    return o && typeof o === "object" ? [o.x, o.y, o.z] : v;
  };
  const { position, target } = camera as { position?: unknown; target?: unknown };
  return { position: asArray(position), target: asArray(target) };
}

/** A field of the migrated object when it is valid, otherwise the default: a bad row never breaks a viewer. */
function field<T>(schema: z.ZodType<T>, value: unknown, fallback: T): T {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : fallback;
}

/**
 * Reads stored settings of any version into the current shape. `version` null with JSON present means
 * version 0 (written before versions existed); no JSON at all means defaults. Settings written by a newer
 * release than this one are read field by field as if current.
 */
export function migrateViewerSettings(stored: unknown, version: number | null): ViewerSettings {
  if (stored === null || stored === undefined || typeof stored !== "object" || Array.isArray(stored)) {
    return { ...DEFAULT_VIEWER_SETTINGS };
  }
  let current = stored as Stored;
  for (let v = Math.max(0, version ?? 0); v < VIEWER_SETTINGS_VERSION; v++) current = STEPS[v](current);
  const d = DEFAULT_VIEWER_SETTINGS;
  return {
    version: VIEWER_SETTINGS_VERSION,
    camera: field(cameraViewSchema.nullable(), current.camera, d.camera),
    background: field(hexColorSchema.nullable(), current.background, d.background),
    autorotate: field(z.boolean(), current.autorotate, d.autorotate),
    units: field(z.enum(LENGTH_UNITS), current.units, d.units),
    meters_per_unit: field(metersPerUnitSchema.nullable(), current.meters_per_unit, d.meters_per_unit),
  };
}

/** The settings after a validated patch; fields the patch leaves out keep their value. */
export function applyViewerSettingsPatch(current: ViewerSettings, patch: ViewerSettingsPatch): ViewerSettings {
  const next = { ...current };
  if (patch.camera !== undefined) next.camera = patch.camera;
  if (patch.background !== undefined) next.background = patch.background === null ? null : patch.background.toLowerCase();
  if (patch.autorotate !== undefined) next.autorotate = patch.autorotate;
  if (patch.units !== undefined) next.units = patch.units;
  if (patch.meters_per_unit !== undefined) next.meters_per_unit = patch.meters_per_unit;
  return next;
}

/** What is written to the row: the JSON without its version, and the version beside it. */
export function storedViewerSettings(settings: ViewerSettings): { settings: Omit<ViewerSettings, "version">; settingsVersion: number } {
  const { version, ...rest } = settings;
  return { settings: rest, settingsVersion: version };
}
