import { z } from "zod";
import { DECLARED_MODEL_TYPES } from "~/lib/model-format";

/** zod schemas shared by the site's forms, the /v1 API and the domain (STYLE habit 3). */
export const uuidSchema = z.string().uuid({ message: "must be a UUID" });
export const modelTypeSchema = z.enum(DECLARED_MODEL_TYPES, {
  errorMap: () => ({ message: "must be one of glb, ply, ksplat" }),
});
export const uploadTypeSchema = z.enum(["model", "image", "video"], {
  errorMap: () => ({ message: "must be one of model, image, video" }),
});
export const visibilitySchema = z.enum(["public", "unlisted", "private"], {
  errorMap: () => ({ message: "must be one of public, unlisted, private" }),
});
export const itemNameSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");

export const idParamsSchema = z.object({ id: uuidSchema });

export const createItemBodySchema = z
  .object({
    model_type: modelTypeSchema,
    upload_type: uploadTypeSchema,
    name: itemNameSchema.optional(),
  })
  .strict();

export const updateItemBodySchema = z
  .object({
    name: itemNameSchema.optional(),
    description: z.string().max(5000).optional(),
    visibility: visibilitySchema.optional(),
    category_id: uuidSchema.nullable().optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "nothing to update" });

export const fileSizeBodySchema = z
  .object({ size: z.number().int().positive("must be a positive whole number of bytes") })
  .strict();

export const uploadItemQuerySchema = z.object({ uploadType: uploadTypeSchema });

export const listItemsQuerySchema = z.object({
  owner: z.union([z.literal("me"), uuidSchema]).optional(),
  visibility: visibilitySchema.optional(),
  status: z.enum(["uploading", "queued", "processing", "ready", "failed"]).optional(),
  model_type: modelTypeSchema.optional(),
  upload_type: uploadTypeSchema.optional(),
  category: z.string().min(1).max(100).optional(),
  q: z.string().trim().min(1).max(200).optional(),
  sort: z.enum(["newest", "most_viewed"]).default("newest"),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(24),
});
export type ListItemsQuery = z.infer<typeof listItemsQuerySchema>;
