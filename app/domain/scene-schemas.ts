import { z } from "zod";
import { itemNameSchema, uuidSchema } from "./schemas";

/**
 * The Builder's scene documents (issue 6): which of the owner's models a scene shows and where. Shared by
 * the /v1 routes, the domain and the Builder page, so a scene the page can save is one the API accepts.
 */
export const MAX_SCENE_PARTS = 24;
/** Positions beyond this (in model units) are typing mistakes, not scenes. */
export const MAX_SCENE_COORDINATE = 100_000;
export const MIN_PART_SCALE = 0.001;
export const MAX_PART_SCALE = 1000;

const finite = z.number({ invalid_type_error: "must be a number" }).finite("must be a finite number");
const coordinate = finite.min(-MAX_SCENE_COORDINATE, `must be at least -${MAX_SCENE_COORDINATE}`).max(MAX_SCENE_COORDINATE, `must be at most ${MAX_SCENE_COORDINATE}`);
const scaleFactor = finite.min(MIN_PART_SCALE, `must be at least ${MIN_PART_SCALE}`).max(MAX_PART_SCALE, `must be at most ${MAX_PART_SCALE}`);

export const partTransformSchema = z
  .object({
    position: z.tuple([coordinate, coordinate, coordinate]),
    /** A rotation as a quaternion (x, y, z, w); normalised on save. */
    quaternion: z
      .tuple([finite, finite, finite, finite])
      .refine((q) => Math.hypot(...q) > 1e-6, { message: "must not be all zeros" })
      .transform((q) => {
        const length = Math.hypot(...q);
        return q.map((v) => v / length) as [number, number, number, number];
      }),
    scale: z.tuple([scaleFactor, scaleFactor, scaleFactor]),
  })
  .strict();
export type PartTransformInput = z.infer<typeof partTransformSchema>;

export const IDENTITY_TRANSFORM: PartTransformInput = { position: [0, 0, 0], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] };

const itemIdsSchema = z
  .array(uuidSchema)
  .max(MAX_SCENE_PARTS, `must list at most ${MAX_SCENE_PARTS} models (a scene holds ${MAX_SCENE_PARTS})`);

/** POST /v1/scene: a new scene, optionally with models already in it. */
export const createSceneBodySchema = z
  .object({
    name: itemNameSchema.optional(),
    item_ids: itemIdsSchema.default([]),
  })
  .strict();

/** POST /v1/item/{id}/scene/parts: more models into a scene. */
export const addScenePartsBodySchema = z
  .object({ item_ids: itemIdsSchema.min(1, "must list at least one model") })
  .strict();

/** PUT /v1/item/{id}/scene: the whole scene as the Builder shows it (order = list order). */
export const saveSceneBodySchema = z
  .object({
    name: itemNameSchema.optional(),
    parts: z
      .array(
        z
          .object({
            /** A part already in the scene keeps its id; a new one has none. */
            id: uuidSchema.optional(),
            item_id: uuidSchema,
            transform: partTransformSchema,
          })
          .strict(),
      )
      .max(MAX_SCENE_PARTS, `must have at most ${MAX_SCENE_PARTS} parts`),
  })
  .strict()
  .refine((body) => new Set(body.parts.flatMap((part) => (part.id ? [part.id] : []))).size === body.parts.filter((part) => part.id).length, {
    message: "parts: the same part id is listed twice",
  });
export type SaveSceneBody = z.infer<typeof saveSceneBodySchema>;

export const scenePartParamsSchema = z.object({ id: uuidSchema, partId: uuidSchema });
