import { createHash, randomUUID } from "node:crypto";

/** Server-generated storage keys. A client never chooses a key, only the id it owns. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/;

export const itemPrefix = (itemId: string) => `items/${itemId}/`;

/** The item whose folder holds `key` (null for a key outside every item's folder). */
export function itemIdOfKey(key: string): string | null {
  return /^items\/([^/]+)\/./.exec(key)?.[1] ?? null;
}

export function modelUploadKey(itemId: string, extension: string): string {
  return `items/${itemId}/model/${randomUUID()}.${extension}`;
}

export function videoUploadKey(itemId: string, extension: string): string {
  return `items/${itemId}/video/${randomUUID()}.${extension}`;
}

export function imageFolderKey(itemId: string): string {
  return `items/${itemId}/images/`;
}

/** A user's avatar image (settings); replaced on every upload. */
export function avatarKey(userId: string): string {
  return `users/${userId}/avatar/${randomUUID()}`;
}

export const userPrefix = (userId: string) => `users/${userId}/`;

/** A model's thumbnail image, under the item so deleting the item removes it. */
export function thumbnailKey(itemId: string): string {
  return `items/${itemId}/thumbnail/${randomUUID()}`;
}

/** Every stored picture of one annotation (deleted with it, and with its item). */
export const annotationImagePrefix = (itemId: string, annotationId: string) => `items/${itemId}/annotations/${annotationId}/`;

/** A new picture for an annotation; each upload gets its own name so caches never show an old one. */
export function annotationImageKey(itemId: string, annotationId: string, extension: string): string {
  return `${annotationImagePrefix(itemId, annotationId)}${randomUUID()}.${extension}`;
}

/**
 * The delivery copy of an item's stored file (app/domain/splat-delivery.server.ts), named after that
 * file: making it twice writes the same object, and a new file gets a new name (no stale caches).
 */
export function deliveryCopyKey(itemId: string, sourceKey: string, extension: string): string {
  return `items/${itemId}/delivery/${createHash("sha256").update(sourceKey).digest("hex").slice(0, 24)}.${extension}`;
}

/** A saved version of an item's splat (the clean-up editor), under the item so deleting the item removes it. */
export function itemVersionKey(itemId: string): string {
  return `items/${itemId}/versions/${randomUUID()}.ply`;
}

/** Whether a key is a safe relative path inside the store (no traversal, no odd characters). */
export function isSafeKey(key: string): boolean {
  if (!key || key.length > 512 || key.startsWith("/") || key.includes("\\")) return false;
  return key.split("/").every((part) => part !== "" && part !== "." && part !== ".." && SAFE_NAME.test(part));
}
