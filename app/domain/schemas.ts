import { z } from "zod";
import { DECLARED_MODEL_TYPES } from "~/formats/model-format";
import { SLUG_PATTERN } from "~/lib/slug";
import { LICENSES, tagListProblem, uniqueTags } from "./item-details";

/** zod schemas shared by the site's forms, the /v1 API and the domain (STYLE habit 3). */
export const uuidSchema = z.string().uuid({ message: "must be a UUID" });
export const modelTypeSchema = z.enum(DECLARED_MODEL_TYPES, {
  errorMap: () => ({ message: `must be one of ${DECLARED_MODEL_TYPES.join(", ")}` }),
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

export const itemDescriptionSchema = z.string().max(5000, "must be at most 5000 characters");
export const licenseSchema = z.enum(LICENSES, { errorMap: () => ({ message: `must be one of ${LICENSES.join(", ")}` }) });
/** Tags as given (any case, "#" or not), stored normalized and without repeats (app/domain/item-details.ts). */
export const tagsSchema = z
  .array(z.string().max(100, "each must be at most 100 characters"))
  .max(50, "must be at most 50 entries")
  .transform((tags) => uniqueTags(tags))
  .superRefine((tags, ctx) => {
    const problem = tagListProblem(tags);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });

export const idParamsSchema = z.object({ id: uuidSchema });
/** /v1/item/{id}/versions/{versionId}/… (the clean-up editor). */
export const versionParamsSchema = z.object({ id: uuidSchema, versionId: uuidSchema });

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
    description: itemDescriptionSchema.optional(),
    visibility: visibilitySchema.optional(),
    category_id: uuidSchema.nullable().optional(),
    tags: tagsSchema.optional(),
    license: licenseSchema.optional(),
    /** Whether others who can see the model may download its files (docs/decisions/025-downloads.md). */
    allow_downloads: z.boolean().optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "nothing to update" });

const byteCountSchema = z.number().int().positive("must be a positive whole number of bytes");

/** `{ size }` or `{ file_size }` (the item's own field name): exactly one of them, read as `size`. */
export const fileSizeBodySchema = z
  .object({ size: byteCountSchema.optional(), file_size: byteCountSchema.optional() })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.size === undefined) === (v.file_size === undefined)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["size"], message: "give the byte count as size or file_size (one of them)" });
    }
  })
  .transform((v) => ({ size: (v.size ?? v.file_size) as number }));

export const uploadItemQuerySchema = z.object({ uploadType: uploadTypeSchema });

export const listItemsQuerySchema = z.object({
  owner: z.union([z.literal("me"), uuidSchema]).optional(),
  visibility: visibilitySchema.optional(),
  status: z.enum(["draft", "uploading", "queued", "processing", "ready", "failed"]).optional(),
  model_type: modelTypeSchema.optional(),
  upload_type: uploadTypeSchema.optional(),
  category: z.string().min(1).max(100).optional(),
  q: z.string().trim().min(1).max(200).optional(),
  /** Only models whose owner lets others download them. */
  downloadable: z.enum(["true", "false"]).transform((v) => v === "true").optional(),
  /** featured: models an admin featured first (most recently featured first), then the rest newest first. */
  sort: z.enum(["newest", "most_viewed", "featured"]).default("newest"),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(24),
});
export type ListItemsQuery = z.infer<typeof listItemsQuerySchema>;

// ── The public site (issue 3): announcements, notifications, contact, account, images.
const cssColorField = z.string().max(64).nullable().optional();
export const announcementInputSchema = z
  .object({
    content: z.string().trim().min(1, "must not be empty").max(10_000),
    background_color: cssColorField,
    text_color: cssColorField,
    is_active: z.boolean().optional(),
    order: z.number().int().min(-1_000_000).max(1_000_000).optional(),
    is_closable: z.boolean().optional(),
  })
  .strict();
export type AnnouncementInput = z.infer<typeof announcementInputSchema>;

export const markNotificationsReadBodySchema = z
  .object({ ids: z.array(uuidSchema).max(100).optional() })
  .strict();

export const contactBodySchema = z
  .object({
    name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
    email: z.string().trim().max(254).email("must be a valid email address"),
    subject: z.string().trim().max(200, "must be at most 200 characters").optional(),
    message: z.string().trim().min(10, "must be at least 10 characters").max(5000, "must be at most 5000 characters"),
    captcha_token: z.string().max(4096).optional(),
    captcha_version: z.enum(["v2", "v3"]).optional(),
  })
  .strict();
export type ContactInput = z.infer<typeof contactBodySchema>;

export const displayNameSchema = z.string().trim().min(1, "must not be empty").max(60, "must be at most 60 characters");
export const updateUserBodySchema = z
  .object({ display_name: displayNameSchema.optional(), avatar_path: z.string().max(512).nullable().optional() })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "nothing to update" });

export const imagePathBodySchema = z.object({ path: z.string().min(1).max(512).nullable() }).strict();
export const watermarkBodySchema = z.object({ is_watermark_enabled: z.boolean() }).strict();

// Scan uploads and requests (SPEC §3, §7).
export const uploadVideoQuerySchema = z.object({
  size: z.coerce.number().int().positive("must be a positive whole number of bytes").optional(),
  filename: z.string().trim().min(1).max(255).optional(),
});

export const uploadImageFileQuerySchema = z.object({ filename: z.string().min(1).max(100) });

/** Names per request of POST /v1/upload/image/{id}/files (a set of MAX_IMAGES takes a few requests). */
export const IMAGE_LINKS_PER_REQUEST = 100;
export const uploadImageFilesBodySchema = z
  .object({ filenames: z.array(z.string().min(1).max(100)).min(1).max(IMAGE_LINKS_PER_REQUEST) })
  .strict();

export const inputBucketPathSchema = z.string().min(1, "must not be empty").max(512);

export const videoScanBodySchema = z
  .object({
    duration: z.number().positive("must be a positive number of seconds").finite(),
    width: z.number().int().positive("must be a positive whole number of pixels"),
    height: z.number().int().positive("must be a positive whole number of pixels"),
    input_bucket_path: inputBucketPathSchema,
  })
  .strict();

export const imageScanBodySchema = z.object({ input_bucket_path: inputBucketPathSchema }).strict();

// ── The admin area (issue 9): announcements, categories, users, moderation.
export const announcementUpdateSchema = announcementInputSchema
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "nothing to update" });

export const announcementReorderSchema = z.object({ announcementIds: z.array(uuidSchema).max(1000) }).strict();

const categoryNameSchema = z.string().trim().min(1, "must not be empty").max(60, "must be at most 60 characters");
const categorySlugSchema = z
  .string()
  .regex(SLUG_PATTERN, "must be lowercase letters and digits joined by single hyphens")
  .max(60, "must be at most 60 characters");
export const categoryInputSchema = z.object({ name: categoryNameSchema, slug: categorySlugSchema.optional() }).strict();
export type CategoryInput = z.infer<typeof categoryInputSchema>;
export const categoryUpdateSchema = categoryInputSchema
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "nothing to update" });
export const categoryReorderSchema = z.object({ categoryIds: z.array(uuidSchema).max(1000) }).strict();

export const adminUserSearchSchema = z.object({
  q: z.string().trim().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

const adminReasonSchema = z.string().trim().min(3, "must be at least 3 characters").max(500, "must be at most 500 characters");
export const creditAdjustmentSchema = z
  .object({
    credit_type: z.enum(["scan", "link"], { errorMap: () => ({ message: "must be one of scan, link" }) }),
    amount: z
      .number()
      .int("must be a whole number")
      .min(-10_000)
      .max(10_000)
      .refine((n) => n !== 0, "must not be 0"),
    reason: adminReasonSchema,
  })
  .strict();
export type CreditAdjustmentInput = z.infer<typeof creditAdjustmentSchema>;

export const adminFlagSchema = z.object({ is_admin: z.boolean() }).strict();
export const userDisabledSchema = z
  .object({ disabled: z.boolean(), reason: adminReasonSchema.optional() })
  .strict()
  .refine((v) => !v.disabled || v.reason !== undefined, { message: "reason is required to disable a user", path: ["reason"] });

export const adminItemsQuerySchema = z.object({
  state: z.enum(["all", "published", "unpublished"]).default("all"),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const unpublishItemSchema = z.object({ reason: adminReasonSchema }).strict();
export const auditQuerySchema = z.object({
  target_type: z.enum(["announcement", "category", "user", "item"]).optional(),
  target_id: uuidSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export const adminUserQuerySchema = z.object({ ledger_before: uuidSchema.optional() });
