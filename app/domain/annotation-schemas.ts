import { z } from "zod";
import { IMAGE_MIME_TYPES } from "~/lib/image-rules";
import { uuidSchema } from "./schemas";

/**
 * Annotations (hotspots on a model, issue 6): the zod schemas and limits shared by the editor at
 * /item/{id}/edit, the /v1 API and the domain (STYLE habit 3).
 */
export const ANNOTATION_TITLE_MAX = 120;
/** Characters of rich-text HTML (after the browser's editor serialised it). */
export const ANNOTATION_BODY_MAX = 10_000;

/** SPEC §9 shows the annotation quota as '{n} per model'; the refusal names the same figure. */
export function annotationQuotaMessage(quota: number): string {
  return `This model has all the annotations your plan allows (${quota} per model). Delete one or upgrade your plan to add more.`;
}

/** Image types an annotation picture may have (SPEC §5: jpeg, png, webp or gif up to 2 MB). */
export const ANNOTATION_IMAGE_EXTENSIONS: Record<string, (typeof IMAGE_MIME_TYPES)[number]> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
};

// Model-space coordinates; scans are metres to kilometres across, so ±1e6 is generous.
const coordinate = z.number({ invalid_type_error: "must be a number" }).finite().min(-1e6).max(1e6);
export const vec3Schema = z.tuple([coordinate, coordinate, coordinate], {
  invalid_type_error: "must be an array of three numbers [x, y, z]",
});
export type Vec3 = z.infer<typeof vec3Schema>;

/** A saved camera view: where the camera stands and the point it looks at. */
export const cameraViewSchema = z
  .object({
    position: vec3Schema,
    target: vec3Schema,
    /** Vertical field of view in degrees (a scan opens at its capture camera's); absent keeps the viewer's. */
    fov: z.number().finite().min(5, "must be at least 5").max(120, "must be at most 120").optional(),
    /**
     * Width ÷ height of the frame the view was composed in (a scan's capture photo, the owner's viewer). A narrower
     * frame (a phone held upright) widens the view to keep what was seen side to side (app/viewer/camera-fit.ts).
     */
    aspect: z.number().finite().min(0.1, "must be at least 0.1").max(10, "must be at most 10").optional(),
  })
  .strict()
  .refine((v) => v.position.some((value, i) => value !== v.target[i]), { message: "position and target must differ" });
export type CameraView = z.infer<typeof cameraViewSchema>;

const titleSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(ANNOTATION_TITLE_MAX, `must be at most ${ANNOTATION_TITLE_MAX} characters`);
const bodySchema = z.string().max(ANNOTATION_BODY_MAX, `must be at most ${ANNOTATION_BODY_MAX} characters`);

export const createAnnotationBodySchema = z
  .object({
    title: titleSchema,
    body: bodySchema.optional(),
    position: vec3Schema,
    normal: vec3Schema.nullable().optional(),
    camera: cameraViewSchema.nullable().optional(),
  })
  .strict();
export type CreateAnnotationInput = z.infer<typeof createAnnotationBodySchema>;

export const updateAnnotationBodySchema = z
  .object({
    title: titleSchema.optional(),
    body: bodySchema.optional(),
    position: vec3Schema.optional(),
    normal: vec3Schema.nullable().optional(),
    camera: cameraViewSchema.nullable().optional(),
    /** The `path` of GET /v1/upload/item/{id}/annotation/{annotationId} after the PUT; null removes the image. */
    image_path: z.string().min(1).max(512).nullable().optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "nothing to update" });
export type UpdateAnnotationInput = z.infer<typeof updateAnnotationBodySchema>;

/** Like PUT /admin/announcements/reorder (SPEC §7): every annotation of the item, in the new order. */
export const reorderAnnotationsBodySchema = z.object({ annotationIds: z.array(uuidSchema).max(1000) }).strict();

export const annotationParamsSchema = z.object({ id: uuidSchema, annotationId: uuidSchema });

export const annotationImageQuerySchema = z.object({
  filename: z
    .string()
    .min(1)
    .max(255)
    .refine((name) => imageExtensionOf(name) !== null, { message: "must end in .jpg, .jpeg, .png, .webp or .gif" }),
});

/** The lower-case image extension of a file name, or null when it is not one of ours. */
export function imageExtensionOf(fileName: string): string | null {
  const match = /\.([A-Za-z0-9]+)$/.exec(fileName);
  const ext = match?.[1].toLowerCase();
  return ext && ext in ANNOTATION_IMAGE_EXTENSIONS ? ext : null;
}
