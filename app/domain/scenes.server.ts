import { db, Prisma, type Item } from "~/db.server";
import type { DeclaredModelType } from "~/formats/model-format";
import { AppError, notFound } from "~/lib/errors";
import { deliveredObject } from "./delivery-copy";
import { presentItem } from "./item-presenter";
import { getVisibleItem, type ItemWithOwner } from "./item-access.server";
import { storedModelFile } from "./model-files.server";
import { IDENTITY_TRANSFORM, MAX_SCENE_PARTS, type PartTransformInput, type SaveSceneBody } from "./scene-schemas";
import { defaultSceneName } from "./scene-name";

/**
 * Scenes (the Builder, issue 6; docs/decisions/019-builder-scenes.md): an item of kind "scene" whose parts
 * are the owner's own models, each with a transform. Whoever may see the scene sees its parts — the scene's
 * visibility governs, as for a model — except parts an admin unpublished, which only the owner still sees.
 * Every query is scoped by the scene's owner.
 */

const SPLAT_TYPES: DeclaredModelType[] = ["ply", "ksplat", "spz", "splat", "sog"];

/** The API's view of one part: what a viewer needs to fetch and place it. */
export interface ScenePartDto {
  id: string;
  item_id: string;
  name: string;
  model_type: string;
  file_format: string | null;
  /** What `url` serves (the compact delivery copy's format for splats), like an item's delivered_format. */
  delivered_format: string | null;
  url: string;
  thumbnail_url: string | null;
  transform: PartTransformInput;
}

const partInclude = {
  source: {
    select: {
      id: true,
      name: true,
      ownerId: true,
      modelType: true,
      fileKey: true,
      fileFormat: true,
      deliveryKey: true,
      deliveryFormat: true,
      deliverySourceKey: true,
      thumbnailKey: true,
      unpublishedAt: true,
    },
  },
} as const;
type NodeWithSource = Prisma.SceneNodeGetPayload<{ include: typeof partInclude }>;

function presentPart(sceneId: string, node: NodeWithSource): ScenePartDto {
  const { source } = node;
  return {
    id: node.id,
    item_id: source.id,
    name: source.name,
    model_type: source.modelType,
    file_format: source.fileFormat,
    delivered_format: deliveredObject(source)?.format ?? null,
    url: `/v1/item/${sceneId}/scene/${node.id}/file`,
    thumbnail_url: source.thumbnailKey ? `/v1/item/${source.id}/thumbnail?v=${source.thumbnailKey.split("/").pop()}` : null,
    transform: {
      position: node.position as PartTransformInput["position"],
      quaternion: node.quaternion as PartTransformInput["quaternion"],
      scale: node.scale as PartTransformInput["scale"],
    },
  };
}

/** Parts the viewer may see, in order: the owner's own models with a file; unpublished ones for the owner only. */
function shownPartsWhere(scene: Pick<Item, "id" | "ownerId">, viewerId: string | null): Prisma.SceneNodeWhereInput {
  return {
    sceneId: scene.id,
    source: {
      ownerId: scene.ownerId,
      kind: "model",
      fileKey: { not: null },
      ...(viewerId === scene.ownerId ? {} : { unpublishedAt: null }),
    },
  };
}

export async function listSceneParts(scene: Pick<Item, "id" | "ownerId">, viewerId: string | null): Promise<ScenePartDto[]> {
  const nodes = await db().sceneNode.findMany({
    where: shownPartsWhere(scene, viewerId),
    include: partInclude,
    orderBy: [{ sortOrder: "asc" }, { createdAt: "asc" }],
  });
  return nodes.map((node) => presentPart(scene.id, node));
}

/** A scene someone may see, with its parts (GET /v1/item/{id}/scene). */
export async function getScene({ sceneId, viewerId }: { sceneId: string; viewerId: string | null }): Promise<{ item: ItemWithOwner; parts: ScenePartDto[] }> {
  const item = await getVisibleItem({ itemId: sceneId, viewerId });
  if (item.kind !== "scene") throw notFound("Scene");
  return { item, parts: await listSceneParts(item, viewerId) };
}

/** The owner's models that can go into a scene: their own, models (not scenes), with a file. Throws naming the first that cannot. */
async function requirePlaceableModels(tx: Prisma.TransactionClient, ownerId: string, itemIds: string[]) {
  const unique = [...new Set(itemIds)];
  if (unique.length === 0) return new Map<string, { modelType: string; name: string }>();
  const rows = await tx.item.findMany({
    where: { id: { in: unique }, ownerId },
    select: { id: true, kind: true, fileKey: true, modelType: true, name: true },
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const id of unique) {
    const row = byId.get(id);
    if (!row) throw new AppError("not_found", `Model ${id} not found among your models.`);
    if (row.kind === "scene") throw new AppError("invalid_input", `“${row.name}” is a scene; scenes cannot be placed in scenes.`);
    if (!row.fileKey) throw new AppError("conflict", `“${row.name}” has no model file yet; add it once it is ready.`);
  }
  return new Map(rows.map((row) => [row.id, { modelType: row.modelType, name: row.name }]));
}

/** A scene's model_type (one of SPEC's glb/ply/ksplat): "ply" when it shows any splat, else "glb". */
async function refreshSceneModelType(tx: Prisma.TransactionClient, sceneId: string) {
  const splats = await tx.sceneNode.count({ where: { sceneId, source: { modelType: { in: SPLAT_TYPES } } } });
  await tx.item.update({ where: { id: sceneId }, data: { modelType: splats > 0 ? "ply" : "glb" } });
}

/** Serialises writes to one scene (row lock on its item), scoped to its owner. */
async function lockOwnedScene(tx: Prisma.TransactionClient, sceneId: string, ownerId: string) {
  const rows = await tx.$queryRaw<Array<{ kind: string }>>`
    SELECT kind::text AS kind FROM "Item" WHERE id = ${sceneId}::uuid AND "ownerId" = ${ownerId}::uuid FOR UPDATE`;
  if (rows.length === 0) throw notFound("Scene");
  if (rows[0].kind !== "scene") throw new AppError("invalid_input", "This item is a model, not a scene; open the Builder to make a scene with it.");
}

function tooMany(count: number) {
  return new AppError("invalid_input", `A scene holds at most ${MAX_SCENE_PARTS} models (this would make ${count}).`);
}

/**
 * POST /v1/scene: a new private scene, with the listed models side by side at the origin (the Builder arranges
 * them). It is a draft until its first save (decision 046): its owner's alone, listed only in the Builder.
 */
export async function createScene({ ownerId, name, itemIds }: { ownerId: string; name?: string; itemIds: string[] }): Promise<Item> {
  return db().$transaction(async (tx) => {
    const models = await requirePlaceableModels(tx, ownerId, itemIds);
    const scene = await tx.item.create({
      data: { ownerId, kind: "scene", modelType: "glb", uploadType: "model", status: "draft", name: name ?? defaultSceneName(itemIds.map((id) => models.get(id)!.name)) },
    });
    if (itemIds.length > 0) {
      await tx.sceneNode.createMany({ data: itemIds.map((sourceItemId, index) => ({ sceneId: scene.id, sourceItemId, sortOrder: index, ...IDENTITY_TRANSFORM })) });
      await refreshSceneModelType(tx, scene.id);
    }
    return scene;
  });
}

/** POST /v1/item/{id}/scene/parts: appends models to a scene; answers the new parts' ids in order. */
export async function addSceneParts({ sceneId, ownerId, itemIds }: { sceneId: string; ownerId: string; itemIds: string[] }): Promise<string[]> {
  return db().$transaction(async (tx) => {
    await lockOwnedScene(tx, sceneId, ownerId);
    await requirePlaceableModels(tx, ownerId, itemIds);
    const existing = await tx.sceneNode.aggregate({ where: { sceneId }, _count: true, _max: { sortOrder: true } });
    if (existing._count + itemIds.length > MAX_SCENE_PARTS) throw tooMany(existing._count + itemIds.length);
    const start = (existing._max.sortOrder ?? -1) + 1;
    const created = [];
    for (const [index, sourceItemId] of itemIds.entries()) {
      created.push(await tx.sceneNode.create({ data: { sceneId, sourceItemId, sortOrder: start + index, ...IDENTITY_TRANSFORM }, select: { id: true } }));
    }
    await refreshSceneModelType(tx, sceneId);
    await tx.item.update({ where: { id: sceneId }, data: { updatedAt: new Date() } });
    return created.map((node) => node.id);
  });
}

/**
 * PUT /v1/item/{id}/scene: the scene becomes exactly `parts` (kept ids are updated, missing ones removed,
 * new ones created), in one transaction so a reader never sees half a save. The first save makes a draft a
 * ready item like any model.
 */
export async function saveScene({ sceneId, ownerId, body }: { sceneId: string; ownerId: string; body: SaveSceneBody }): Promise<void> {
  await db().$transaction(async (tx) => {
    await lockOwnedScene(tx, sceneId, ownerId);
    await requirePlaceableModels(tx, ownerId, body.parts.map((part) => part.item_id));
    const current = await tx.sceneNode.findMany({ where: { sceneId }, select: { id: true, sourceItemId: true } });
    const currentById = new Map(current.map((node) => [node.id, node]));
    for (const part of body.parts) {
      if (part.id && currentById.get(part.id)?.sourceItemId !== part.item_id) {
        throw new AppError("invalid_input", `Part ${part.id} is not a part of this scene showing model ${part.item_id}.`);
      }
    }
    const kept = new Set(body.parts.flatMap((part) => (part.id ? [part.id] : [])));
    await tx.sceneNode.deleteMany({ where: { sceneId, id: { notIn: [...kept] } } });
    for (const [sortOrder, part] of body.parts.entries()) {
      const data = { sortOrder, position: part.transform.position, quaternion: part.transform.quaternion, scale: part.transform.scale };
      if (part.id) await tx.sceneNode.update({ where: { id: part.id }, data });
      else await tx.sceneNode.create({ data: { sceneId, sourceItemId: part.item_id, ...data } });
    }
    await refreshSceneModelType(tx, sceneId);
    await tx.item.update({ where: { id: sceneId }, data: { updatedAt: new Date(), status: "ready", ...(body.name ? { name: body.name } : {}) } });
  });
}

/** The owner's scenes for /builder, drafts included, newest change first, with how many models each shows. */
export async function listOwnScenes({ ownerId, limit = 100 }: { ownerId: string; limit?: number }) {
  const scenes = await db().item.findMany({
    where: { ownerId, kind: "scene" },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, name: true, status: true, visibility: true, thumbnailKey: true, updatedAt: true, _count: { select: { sceneNodes: true } } },
  });
  return scenes.map((scene) => ({
    id: scene.id,
    name: scene.name,
    is_draft: scene.status === "draft",
    visibility: scene.visibility,
    thumbnail_url: scene.thumbnailKey ? `/v1/item/${scene.id}/thumbnail?v=${scene.thumbnailKey.split("/").pop()}` : null,
    part_count: scene._count.sceneNodes,
    updated_at: scene.updatedAt.toISOString(),
  }));
}

/** The owner's models that can be placed in a scene (/builder/import's library), newest first. */
export async function listPlaceableModels({ ownerId, limit = 200 }: { ownerId: string; limit?: number }) {
  const items = await db().item.findMany({
    where: { ownerId, kind: "model", fileKey: { not: null } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, name: true, modelType: true, fileFormat: true, thumbnailKey: true, visibility: true, createdAt: true },
  });
  return items.map((item) => ({
    id: item.id,
    name: item.name,
    model_type: item.modelType,
    file_format: item.fileFormat,
    visibility: item.visibility,
    thumbnail_url: item.thumbnailKey ? `/v1/item/${item.id}/thumbnail?v=${item.thumbnailKey.split("/").pop()}` : null,
  }));
}

/** GET /v1/item/{id}/scene/{partId}/file: one part's delivered bytes, for whoever may see the scene and that part. */
export async function scenePartModelFile({ sceneId, partId, viewerId }: { sceneId: string; partId: string; viewerId: string | null }) {
  const scene = await getVisibleItem({ itemId: sceneId, viewerId });
  if (scene.kind !== "scene") throw notFound("Scene");
  const node = await db().sceneNode.findFirst({ where: { id: partId, ...shownPartsWhere(scene, viewerId) }, include: partInclude });
  if (!node) throw notFound("Scene part");
  return storedModelFile({
    name: node.source.name,
    modelType: node.source.modelType,
    object: deliveredObject(node.source),
    variant: "delivered",
    signedOutReader: viewerId === null,
  });
}

/** An item as the API presents it, plus its parts when it is a scene (null for models): what pages and viewers need. */
export async function presentViewableItem(item: ItemWithOwner, viewerId: string | null) {
  return { ...presentItem(item, viewerId), scene_parts: item.kind === "scene" ? await listSceneParts(item, viewerId) : null };
}
export type ViewableItemDto = Awaited<ReturnType<typeof presentViewableItem>>;
