import { z } from "zod";
import { ENVIRONMENT_NAMES, type ViewerBackground } from "~/viewer/background";
import { cameraViewSchema, type CameraView } from "./annotation-schemas";

/**
 * An item's viewer settings (PATCH /v1/item/{id}/settings, SPEC §7): the opening camera, background,
 * autorotate, length units and real-world scale. Stored as JSON with the schema version it was written
 * with (Item.settings + Item.settingsVersion) and migrated on read, so a row written by any release
 * reads in the current shape (the SuperSplat habit, STYLE.md). Pure: no database here.
 */
export const VIEWER_SETTINGS_VERSION = 3;

/** The frame shape assumed for opening views saved before views carried theirs (scans' landscape capture photos). */
export const LEGACY_VIEW_ASPECT = 1.5;
/** Autorotation speed: a multiple of the viewer's normal pace (one turn in about 30 s). */
export const AUTOROTATE_SPEED = { min: 0.25, max: 4, default: 1 } as const;
/** The opening field of view (vertical, degrees) an owner may choose; null keeps the viewer's (45°) or the saved view's. */
export const FIELD_OF_VIEW = { min: 20, max: 90 } as const;

export const LENGTH_UNITS = ["m", "cm", "mm", "in", "ft"] as const;
export type LengthUnit = (typeof LENGTH_UNITS)[number];

export const hexColorSchema = z
  .string()
  .trim()
  .regex(/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i, "must be a hex colour such as #1e1f22");

/**
 * What the viewer shows behind the model (decision 053): a hex colour (the only kind before version 3), a vertical
 * gradient `{type: "gradient", top, bottom}` or an environment `{type: "environment", name}` drawn by the viewer.
 */
export const viewerBackgroundSchema: z.ZodType<ViewerBackground, z.ZodTypeDef, unknown> = z.union(
  [
    hexColorSchema.transform((hex) => hex.toLowerCase()),
    z
      .object({ type: z.literal("gradient"), top: hexColorSchema, bottom: hexColorSchema })
      .strict()
      .transform((g) => ({ type: "gradient" as const, top: g.top.toLowerCase(), bottom: g.bottom.toLowerCase() })),
    z
      .object({
        type: z.literal("environment"),
        name: z.enum(ENVIRONMENT_NAMES, { errorMap: () => ({ message: `must be one of ${ENVIRONMENT_NAMES.join(", ")}` }) }),
      })
      .strict(),
  ],
  {
    errorMap: (issue, ctx) =>
      issue.code === "invalid_union"
        ? { message: `must be a hex colour such as #1e1f22, {"type": "gradient", "top": hex, "bottom": hex} or {"type": "environment", "name": one of ${ENVIRONMENT_NAMES.join(", ")}}` }
        : { message: ctx.defaultError },
  },
);

export interface ViewerSettings {
  version: typeof VIEWER_SETTINGS_VERSION;
  /** Where the viewer opens; null frames the model automatically. */
  camera: CameraView | null;
  /** Behind the model: a CSS hex colour, a gradient or an environment; null uses the viewer's default colour. */
  background: ViewerBackground | null;
  autorotate: boolean;
  /** How fast it turns while autorotating, as a multiple of the normal pace. */
  autorotate_speed: number;
  /** Vertical field of view the viewer opens with (degrees); null: the saved view's, else the viewer's default. */
  fov: number | null;
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
  autorotate_speed: AUTOROTATE_SPEED.default,
  fov: null,
  units: "m",
  meters_per_unit: null,
};

const autorotateSpeedSchema = z
  .number()
  .finite()
  .min(AUTOROTATE_SPEED.min, `must be at least ${AUTOROTATE_SPEED.min}`)
  .max(AUTOROTATE_SPEED.max, `must be at most ${AUTOROTATE_SPEED.max}`);
const fieldOfViewSchema = z.number().finite().min(FIELD_OF_VIEW.min, `must be at least ${FIELD_OF_VIEW.min}`).max(FIELD_OF_VIEW.max, `must be at most ${FIELD_OF_VIEW.max}`);
const metersPerUnitSchema = z.number().finite().positive("must be a positive number").max(1e6, "must be at most 1000000");

/** The body of PATCH /v1/item/{id}/settings: any subset of the fields; null resets one to its default. */
export const viewerSettingsPatchSchema = z
  .object({
    camera: cameraViewSchema.nullable().optional(),
    background: viewerBackgroundSchema.nullable().optional(),
    autorotate: z.boolean().optional(),
    autorotate_speed: autorotateSpeedSchema.optional(),
    fov: fieldOfViewSchema.nullable().optional(),
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
 * - 1 → 2: views now say the frame shape they were composed in (`camera.aspect`, issue 35 item 6). A saved view with a
 *   field of view but no shape was a scan's capture camera (the owner's "Use the current view" kept neither): it gets
 *   LEGACY_VIEW_ASPECT, so a phone held upright widens it instead of cutting the sides off.
 * - 2 → 3: `background` may also be a gradient or an environment (decision 053). A version-2 background (a hex colour
 *   or null) is a valid version-3 one and is kept; the bump tells older releases, which read it field by field, that
 *   a background they cannot draw may be there (they fall back to their default colour).
 */
const STEPS: Record<number, (stored: Stored) => Stored> = {
  0: (s) => ({ ...s, camera: vectorsToArrays(s.camera) }),
  1: (s) => ({ ...s, camera: withLegacyAspect(s.camera) }),
  2: (s) => s,
};

function withLegacyAspect(camera: unknown): unknown {
  if (!camera || typeof camera !== "object" || Array.isArray(camera)) return camera;
  const view = camera as Record<string, unknown>;
  return typeof view.fov === "number" && view.aspect === undefined ? { ...view, aspect: LEGACY_VIEW_ASPECT } : camera;
}

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
function field<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, value: unknown, fallback: T): T {
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
    background: field(viewerBackgroundSchema.nullable(), current.background, d.background),
    autorotate: field(z.boolean(), current.autorotate, d.autorotate),
    autorotate_speed: field(autorotateSpeedSchema, current.autorotate_speed, d.autorotate_speed),
    fov: field(fieldOfViewSchema.nullable(), current.fov, d.fov),
    units: field(z.enum(LENGTH_UNITS), current.units, d.units),
    meters_per_unit: field(metersPerUnitSchema.nullable(), current.meters_per_unit, d.meters_per_unit),
  };
}

/** The settings after a validated patch; fields the patch leaves out keep their value. */
export function applyViewerSettingsPatch(current: ViewerSettings, patch: ViewerSettingsPatch): ViewerSettings {
  const next = { ...current };
  if (patch.camera !== undefined) next.camera = patch.camera;
  if (patch.background !== undefined) next.background = patch.background; // lower-cased by the schema
  if (patch.autorotate !== undefined) next.autorotate = patch.autorotate;
  if (patch.autorotate_speed !== undefined) next.autorotate_speed = patch.autorotate_speed;
  if (patch.fov !== undefined) next.fov = patch.fov;
  if (patch.units !== undefined) next.units = patch.units;
  if (patch.meters_per_unit !== undefined) next.meters_per_unit = patch.meters_per_unit;
  return next;
}

/** What is written to the row: the JSON without its version, and the version beside it. */
export function storedViewerSettings(settings: ViewerSettings): { settings: Omit<ViewerSettings, "version">; settingsVersion: number } {
  const { version, ...rest } = settings;
  return { settings: rest, settingsVersion: version };
}
