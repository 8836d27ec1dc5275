import type { Item } from "~/db.server";
import { notFound } from "~/lib/errors";
import { getOwnedItem, getVisibleItemRecord } from "./item-access.server";
import { coarseObject, deliveredObject } from "./delivery-copy";
import { safeFileStem } from "./downloads";
import { publicObjectStats } from "./public-object-stats.server";

/**
 * Which file of an item: what viewers get ("delivered": the compact delivery copy when there is one),
 * its coarse level viewers show first ("coarse", large splats only), or the file as uploaded or
 * produced by the scan ("original", its owner only).
 */
export type ItemFileVariant = "delivered" | "coarse" | "original" | "mesh" | "mesh_lite";

/** The stored object of a variant that is not made from the delivery copy (null when the item has none). */
function variantObject(item: { fileKey: string | null; meshKey: string | null; meshLiteKey: string | null }, variant: "original" | "mesh" | "mesh_lite") {
  const key = variant === "original" ? item.fileKey : variant === "mesh" ? item.meshKey : item.meshLiteKey;
  return key ? { key } : null;
}

/** The stored object of a variant (null when the item has none). */
function itemObject(item: Item, variant: ItemFileVariant): { key: string } | null {
  if (variant === "delivered") return deliveredObject(item);
  if (variant === "coarse") return coarseObject(item);
  return variantObject(item, variant);
}

/** The first letters of each variant's ETags. */
const ETAG_PREFIX: Record<ItemFileVariant, string> = { delivered: "d", coarse: "c", original: "o", mesh: "mesh", mesh_lite: "mesh_lite" };

/** Finds an item's model file for someone allowed to see the item (the original for its owner only). */
export async function itemModelFile({
  itemId,
  viewerId,
  variant = "delivered",
}: {
  itemId: string;
  viewerId: string | null;
  variant?: ItemFileVariant;
}): Promise<ModelFile> {
  // An item id alone never finds a file: visibility (or ownership for the original) is in the query.
  const item = variant === "original" ? (viewerId ? await getOwnedItem({ itemId, ownerId: viewerId }) : null) : await getVisibleItemRecord({ itemId, viewerId });
  if (!item) throw notFound();
  return storedModelFile({
    name: item.name,
    modelType: variant.startsWith("mesh") ? "glb" : item.modelType,
    object: itemObject(item, variant),
    variant,
    signedOutReader: viewerId === null,
  });
}

/** A stored model file that exists, as the file routes send it; its bytes are read only when they are sent. */
export interface ModelFile {
  /** The storage key. */
  key: string;
  size: number;
  etag: string;
  fileName: string;
  variant: ItemFileVariant;
}

/** The size and ETag of model files, a signed-out reader's kept until their item changes (decision 073). */
const objectStats = publicObjectStats();

/**
 * A stored model object (already access-checked by the caller) with what the file routes send.
 * `signedOutReader`: the download is a signed-out visitor's, whose object's size and ETag may be the ones kept until
 * its item changes (decision 073).
 */
export async function storedModelFile({
  name,
  modelType,
  object,
  variant,
  signedOutReader,
}: {
  name: string;
  modelType: string;
  object: { key: string } | null;
  variant: ItemFileVariant;
  signedOutReader: boolean;
}): Promise<ModelFile> {
  if (!object) throw notFound("Model file");
  const stat = await objectStats.stat(object.key, { signedOutReader });
  if (!stat) throw notFound("Model file");
  const extension = object.key.split(".").pop() ?? modelType;
  return {
    key: object.key,
    size: stat.size,
    // Distinct per variant and object, so a cached original never answers for the delivery copy.
    etag: `"${ETAG_PREFIX[variant]}-${stat.etag.replace(/^W\/|"/g, "")}"`,
    fileName: `${safeFileStem(name)}.${extension}`,
    variant,
  };
}
