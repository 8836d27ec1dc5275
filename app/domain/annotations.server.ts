import { db, Prisma, type Annotation } from "~/db.server";
import { keptUntilChanged } from "~/lib/kept-until-changed.server";
import { checkCompleteOrder } from "~/lib/reorder";
import { sanitizeHtml } from "~/lib/sanitize-html.server";
import { storage } from "~/storage/index.server";
import { annotationImageKey, annotationImagePrefix } from "~/storage/keys";
import {
  annotationQuotaMessage,
  cameraViewSchema,
  imageExtensionOf,
  vec3Schema,
  type CameraView,
  type CreateAnnotationInput,
  type UpdateAnnotationInput,
  type Vec3,
} from "./annotation-schemas";
import { AppError, invalidInput, notFound } from "~/lib/errors";
import { acceptUploadedImage, createImageUploadUrl, serveImage } from "./images.server";
import { getOwnedItem, getVisibleItem } from "./item-access.server";
import { getPlanInForce } from "./plans.server";

/**
 * Annotations: hotspots the owner places on a model's surface, each with a title, sanitised rich
 * text, an optional picture and an optional camera view for guided tours (issue 6). Reads follow
 * the item's visibility; every write is scoped to the item's owner.
 */
export interface AnnotationDto {
  id: string;
  title: string;
  /** Sanitised HTML (app/lib/sanitize-html.server.ts allow-list). */
  body: string;
  image_url: string | null;
  /** The anchor on the model's surface, in the viewer's world space. */
  position: Vec3;
  /** The surface normal there (meshes) or the direction it was placed from (splats). */
  normal: Vec3 | null;
  camera: CameraView | null;
  /** 0-based place in the tour. */
  order: number;
}

function readVec3(value: Prisma.JsonValue | null): Vec3 | null {
  const parsed = vec3Schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function readCamera(value: Prisma.JsonValue | null): CameraView | null {
  const parsed = cameraViewSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function presentAnnotation(row: Annotation, order: number): AnnotationDto {
  return {
    id: row.id,
    title: row.title,
    // Sanitised when saved; again here so a stricter allow-list also applies to older rows.
    body: sanitizeHtml(row.body),
    image_url: row.imageKey ? `/v1/item/${row.itemId}/annotations/${row.id}/image?v=${row.imageKey.split("/").pop()}` : null,
    position: readVec3(row.position) ?? [0, 0, 0],
    normal: readVec3(row.normal),
    camera: readCamera(row.camera),
    order,
  };
}

const TOUR_ORDER = [{ sortOrder: "asc" }, { createdAt: "asc" }, { id: "asc" }] satisfies Prisma.AnnotationOrderByWithRelationInput[];

/** Each model's annotations as signed-out visitors see them, kept until a change names the model (decision 066). */
const annotationsShownToVisitors = keptUntilChanged<AnnotationDto[]>({ shows: (_annotations, itemId) => [`item:${itemId}`] });

/**
 * The annotations of an item, in tour order, as plain JSON-safe objects. The caller has already
 * checked that the requester may see the item (item page, viewer JSON, embed). A signed-out reader's
 * (`signedOutReader`) come from the kept lists; everyone else's from the database.
 */
export async function listAnnotations({ itemId, signedOutReader = false }: { itemId: string; signedOutReader?: boolean }): Promise<AnnotationDto[]> {
  const read = async () => (await db().annotation.findMany({ where: { itemId }, orderBy: TOUR_ORDER })).map(presentAnnotation);
  return signedOutReader ? (await annotationsShownToVisitors.read(itemId, read))! : read();
}

/** The annotations of an item the viewer may see (404 otherwise, as for the item itself). */
export async function listVisibleAnnotations({ itemId, viewerId }: { itemId: string; viewerId: string | null }) {
  await getVisibleItem({ itemId, viewerId });
  return listAnnotations({ itemId, signedOutReader: viewerId === null });
}

/** Locks the owner's item row for the rest of the transaction, so annotation writes of one model queue. */
async function lockOwnedItem(tx: Prisma.TransactionClient, { itemId, ownerId }: { itemId: string; ownerId: string }) {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM "Item" WHERE id = ${itemId}::uuid AND "ownerId" = ${ownerId}::uuid FOR UPDATE`;
  if (rows.length === 0) throw notFound();
}

async function getOwnedAnnotation({ itemId, annotationId, ownerId }: { itemId: string; annotationId: string; ownerId: string }) {
  const row = await db().annotation.findFirst({ where: { id: annotationId, itemId, item: { ownerId } } });
  if (!row) {
    await getOwnedItem({ itemId, ownerId }); // an unknown or foreign item reads as "Item not found."
    throw notFound("Annotation");
  }
  return row;
}

async function presentOne(row: Annotation): Promise<AnnotationDto> {
  const order = await db().annotation.count({
    where: {
      itemId: row.itemId,
      OR: [
        { sortOrder: { lt: row.sortOrder } },
        { sortOrder: row.sortOrder, createdAt: { lt: row.createdAt } },
        { sortOrder: row.sortOrder, createdAt: row.createdAt, id: { lt: row.id } },
      ],
    },
  });
  return presentAnnotation(row, order);
}

/**
 * Adds an annotation at the end of the tour. The plan's annotation quota (per model, -1 unlimited)
 * is checked while the item row is locked, so parallel requests cannot pass it together.
 */
export async function createAnnotation({ itemId, ownerId, input }: { itemId: string; ownerId: string; input: CreateAnnotationInput }) {
  const plan = await getPlanInForce({ userId: ownerId });
  const row = await db().$transaction(async (tx) => {
    await lockOwnedItem(tx, { itemId, ownerId });
    const existing = await tx.annotation.aggregate({ where: { itemId }, _count: true, _max: { sortOrder: true } });
    if (plan.annotationQuota !== -1 && existing._count >= plan.annotationQuota) {
      throw new AppError("quota_exceeded", annotationQuotaMessage(plan.annotationQuota));
    }
    return tx.annotation.create({
      data: {
        itemId,
        sortOrder: (existing._max.sortOrder ?? -1) + 1,
        title: input.title,
        body: sanitizeHtml(input.body ?? ""),
        position: input.position,
        normal: input.normal ?? undefined,
        camera: input.camera ?? undefined,
      },
    });
  });
  return presentOne(row);
}

export async function updateAnnotation(input: { itemId: string; annotationId: string; ownerId: string; changes: UpdateAnnotationInput }) {
  const current = await getOwnedAnnotation(input);
  const { changes } = input;
  const prefix = annotationImagePrefix(input.itemId, input.annotationId);
  if (changes.image_path) await acceptUploadedImage({ key: changes.image_path, prefix });
  const { count } = await db().annotation.updateMany({
    where: { id: current.id, itemId: input.itemId, item: { ownerId: input.ownerId } },
    data: {
      title: changes.title,
      body: changes.body === undefined ? undefined : sanitizeHtml(changes.body),
      position: changes.position,
      // Prisma stores SQL NULL in a Json column only through its DbNull marker.
      normal: changes.normal === null ? Prisma.DbNull : changes.normal,
      camera: changes.camera === null ? Prisma.DbNull : changes.camera,
      imageKey: changes.image_path,
    },
  });
  if (count === 0) throw notFound("Annotation");
  if (changes.image_path !== undefined) await removeImagesExcept({ prefix, keep: changes.image_path });
  return presentOne(await getOwnedAnnotation(input));
}

/** Deletes an annotation's stored pictures other than `keep` (replaced ones, uploads never used). */
async function removeImagesExcept({ prefix, keep }: { prefix: string; keep: string | null }) {
  const stored = await storage().list(prefix);
  await Promise.all(stored.filter((object) => object.key !== keep).map((object) => storage().delete(object.key).catch(() => undefined)));
}

export async function deleteAnnotation(input: { itemId: string; annotationId: string; ownerId: string }): Promise<void> {
  await getOwnedAnnotation(input);
  const { count } = await db().annotation.deleteMany({
    where: { id: input.annotationId, itemId: input.itemId, item: { ownerId: input.ownerId } },
  });
  if (count === 0) throw notFound("Annotation");
  await storage().deletePrefix(annotationImagePrefix(input.itemId, input.annotationId));
}

/**
 * Sets the tour order. `annotationIds` must name every annotation of the item exactly once; the
 * new order is written in one transaction, so it applies completely or not at all.
 */
export async function reorderAnnotations({ itemId, ownerId, annotationIds }: { itemId: string; ownerId: string; annotationIds: string[] }) {
  await db().$transaction(async (tx) => {
    await lockOwnedItem(tx, { itemId, ownerId });
    const existing = await tx.annotation.findMany({ where: { itemId }, select: { id: true } });
    const problem = checkCompleteOrder({ requested: annotationIds, existing: existing.map((a) => a.id), field: "annotationIds" });
    if (problem) throw invalidInput(problem);
    for (const [index, id] of annotationIds.entries()) {
      await tx.annotation.update({ where: { id }, data: { sortOrder: index } });
    }
  });
  return listAnnotations({ itemId });
}

/**
 * SPEC §7 GET /upload/item/{id}/annotation/{annotationId}?filename= → {path, url}: a signed link to
 * PUT the annotation's picture (≤ 2 MB jpeg/png/webp/gif). PATCHing the annotation with
 * `image_path: path` checks the stored bytes and attaches it.
 */
export async function createAnnotationImageUpload(input: { itemId: string; annotationId: string; ownerId: string; fileName: string }) {
  await getOwnedAnnotation(input);
  const extension = imageExtensionOf(input.fileName);
  if (!extension) throw invalidInput("filename must end in .jpg, .jpeg, .png, .webp or .gif");
  return createImageUploadUrl({ key: annotationImageKey(input.itemId, input.annotationId, extension) });
}

/** The picture of an annotation of an item the viewer may see. */
export async function serveAnnotationImage(input: { itemId: string; annotationId: string; viewerId: string | null; request: Request }) {
  await getVisibleItem({ itemId: input.itemId, viewerId: input.viewerId });
  const row = await db().annotation.findFirst({ where: { id: input.annotationId, itemId: input.itemId } });
  if (!row?.imageKey) throw notFound("Image");
  const version = new URL(input.request.url).searchParams.get("v");
  return serveImage({ key: row.imageKey, request: input.request, immutable: version === row.imageKey.split("/").pop() });
}
