import { z } from "zod";
import type { MediaState } from "./product-media-presenter";
import { gid, request, userErrorsSchema, type AdminGraphql } from "./shopify-admin-api.server";

/**
 * The Admin GraphQL operations behind a product's 3D media (issue 40, docs/decisions/044): a staged upload
 * target for the GLB, the upload itself (a multipart POST to the target Shopify names), the media added with
 * `productUpdate` (productCreateMedia is deprecated), its processing state read back, and our own media
 * deleted with `fileDelete` (productDeleteMedia is deprecated; a Model3d's media id is its file id).
 */


export interface PushedMedia {
  mediaGid: string;
  state: MediaState;
  error: string | null;
}

const STAGED_UPLOADS_CREATE = `#graphql
  mutation ScanroomStageModel($input: [StagedUploadInput!]!) {
    stagedUploadsCreate(input: $input) {
      stagedTargets { url resourceUrl parameters { name value } }
      userErrors { field message }
    }
  }`;

const stagedTargetSchema = z.object({
  url: z.string().url(),
  resourceUrl: z.string().url(),
  parameters: z.array(z.object({ name: z.string(), value: z.string() })),
});

/** Where Shopify wants the GLB: a URL and the form fields to post with it. */
export async function stageModelUpload(admin: AdminGraphql, file: { filename: string; size: number }) {
  const data = await request(
    admin,
    STAGED_UPLOADS_CREATE,
    { input: [{ resource: "MODEL_3D", filename: file.filename, mimeType: "model/gltf-binary", fileSize: String(file.size), httpMethod: "POST" }] },
    z.object({ stagedUploadsCreate: z.object({ stagedTargets: z.array(stagedTargetSchema), userErrors: userErrorsSchema }) }),
  );
  const { stagedTargets, userErrors } = data.stagedUploadsCreate;
  if (userErrors.length > 0 || !stagedTargets[0]) throw new Error(`Shopify refused the upload target: ${messages(userErrors) || "no target"}`);
  return stagedTargets[0];
}

/**
 * How long a staged upload (≤ 15 MB) may take. The queue's workers take one job at a time and nothing expires a
 * running one: an upload that never answers would hold the product re-sync queue of this process for good.
 */
const STAGED_UPLOAD_TIMEOUT_MS = 120_000;

/** Posts the file to a staged target (the form's fields first, the file last, as the target requires). */
export async function uploadToStagedTarget(target: z.infer<typeof stagedTargetSchema>, file: { filename: string; bytes: Uint8Array }) {
  const form = new FormData();
  for (const { name, value } of target.parameters) form.append(name, value);
  form.append("file", new Blob([new Uint8Array(file.bytes)], { type: "model/gltf-binary" }), file.filename);
  const response = await fetch(target.url, { method: "POST", body: form, signal: AbortSignal.timeout(STAGED_UPLOAD_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`the staged upload answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
}

const mediaNodeSchema = z.object({
  id: gid("Model3d"),
  alt: z.string().nullable().optional(),
  mediaContentType: z.string(),
  status: z.enum(["UPLOADED", "PROCESSING", "READY", "FAILED"]),
  mediaErrors: z.array(z.object({ message: z.string() })).optional(),
});

function stateOf(node: z.infer<typeof mediaNodeSchema>): PushedMedia {
  const state: MediaState = node.status === "READY" ? "ready" : node.status === "FAILED" ? "failed" : "processing";
  const error = state === "failed" ? node.mediaErrors?.map((e) => e.message).join("; ") || "Shopify could not process the model." : null;
  return { mediaGid: node.id, state, error };
}

const PRODUCT_ADD_MEDIA = `#graphql
  mutation ScanroomAddModelMedia($product: ProductUpdateInput!, $media: [CreateMediaInput!]) {
    productUpdate(product: $product, media: $media) {
      product { media(last: 1) { nodes { id alt mediaContentType status mediaErrors { message } } } }
      userErrors { field message }
    }
  }`;

/**
 * Adds the uploaded GLB to the product's media. New media is appended, so it is the product's last; that node
 * is checked to be the 3D model with our alt text before its id is trusted.
 */
export async function addProductModelMedia(admin: AdminGraphql, productGid: string, media: { resourceUrl: string; alt: string }): Promise<PushedMedia> {
  const data = await request(
    admin,
    PRODUCT_ADD_MEDIA,
    { product: { id: productGid }, media: [{ originalSource: media.resourceUrl, mediaContentType: "MODEL_3D", alt: media.alt }] },
    z.object({
      productUpdate: z.object({
        product: z.object({ media: z.object({ nodes: z.array(z.unknown()) }) }).nullable(),
        userErrors: userErrorsSchema,
      }),
    }),
  );
  const { product, userErrors } = data.productUpdate;
  if (userErrors.length > 0) throw new Error(`Shopify refused the media: ${messages(userErrors)}`);
  const last = mediaNodeSchema.safeParse(product?.media.nodes.at(-1));
  if (!last.success || last.data.mediaContentType !== "MODEL_3D" || last.data.alt !== media.alt) {
    throw new Error("Shopify's answer does not show the 3D model that was added");
  }
  return stateOf(last.data);
}

const MEDIA_STATUS = `#graphql
  query ScanroomModelMediaStatus($ids: [ID!]!) {
    nodes(ids: $ids) { ... on Model3d { id alt mediaContentType status mediaErrors { message } } }
  }`;

/** The processing state of our media, by id; media that no longer exists (deleted by the merchant) is absent. */
export async function readModelMediaStates(admin: AdminGraphql, mediaGids: string[]): Promise<Map<string, PushedMedia>> {
  const states = new Map<string, PushedMedia>();
  if (mediaGids.length === 0) return states;
  const data = await request(admin, MEDIA_STATUS, { ids: mediaGids }, z.object({ nodes: z.array(z.unknown().nullable()) }));
  for (const node of data.nodes) {
    const parsed = mediaNodeSchema.safeParse(node);
    if (parsed.success) states.set(parsed.data.id, stateOf(parsed.data));
  }
  return states;
}

const FILE_UPDATE = `#graphql
  mutation ScanroomRenameModelMedia($files: [FileUpdateInput!]!) {
    fileUpdate(files: $files) {
      files { id alt }
      userErrors { field message code }
    }
  }`;

/** Sets the alt text of media we added (the model was renamed). */
export async function renameModelMedia(admin: AdminGraphql, mediaGid: string, alt: string): Promise<void> {
  const data = await request(
    admin,
    FILE_UPDATE,
    { files: [{ id: mediaGid, alt }] },
    z.object({ fileUpdate: z.object({ userErrors: z.array(z.object({ message: z.string() })) }) }),
  );
  if (data.fileUpdate.userErrors.length > 0) throw new Error(`Shopify refused the alt text: ${messages(data.fileUpdate.userErrors)}`);
}

const FILE_DELETE = `#graphql
  mutation ScanroomDeleteModelMedia($fileIds: [ID!]!) {
    fileDelete(fileIds: $fileIds) {
      deletedFileIds
      userErrors { field message code }
    }
  }`;

/** Deletes media we added (from the product and the store's files). Media already gone counts as deleted. */
export async function deleteModelMedia(admin: AdminGraphql, mediaGids: string[]): Promise<void> {
  if (mediaGids.length === 0) return;
  const data = await request(
    admin,
    FILE_DELETE,
    { fileIds: mediaGids },
    z.object({ fileDelete: z.object({ userErrors: z.array(z.object({ message: z.string(), code: z.string().nullable().optional() })) }) }),
  );
  const errors = data.fileDelete.userErrors.filter((error) => error.code !== "FILE_DOES_NOT_EXIST");
  if (errors.length > 0) throw new Error(`Shopify refused to delete the media: ${messages(errors)}`);
}

function messages(errors: Array<{ message: string }>): string {
  return errors.map((error) => error.message).join("; ");
}
