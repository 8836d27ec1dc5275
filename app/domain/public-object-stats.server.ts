import { keptUntilChanged, type KeptUntilChangedOptions } from "~/lib/kept-until-changed.server";
import type { StorageDriver } from "~/storage/driver";
import { storage } from "~/storage/index.server";
import { itemIdOfKey } from "~/storage/keys";

/** What a model file's download needs of its stored object: its size and the store's ETag. */
export interface ObjectStat {
  size: number;
  etag: string;
}

export interface PublicObjectStats {
  /**
   * The object's size and ETag (null when it is not there). A signed-out reader's is kept until a change names the
   * item the object belongs to, like the item's record (decision 066); everyone else's is asked of the store.
   */
  stat(key: string, { signedOutReader }: { signedOutReader: boolean }): Promise<ObjectStat | null>;
}

/**
 * Signed-out downloads of a model whose bytes are held in memory (decision 058) ask the store nothing
 * (docs/decisions/073-public-model-files-stat-kept.md): with S3 every download used to wait for a HEAD request,
 * queued behind the creators' uploads on the same server.
 *
 * Kept under its storage key, so an item given a new file asks for the new object; only objects under an item's
 * folder (`items/<id>/…`) are kept, so that its changes are heard. A missing object is never kept.
 */
export function publicObjectStats({
  store = storage,
  ...options
}: { store?: () => Pick<StorageDriver, "stat"> } & Pick<KeptUntilChangedOptions<ObjectStat>, "hub" | "keptMs" | "now"> = {}): PublicObjectStats {
  const kept = keptUntilChanged<ObjectStat>({ shows: (_stat, key) => [`item:${itemIdOfKey(key)}`], ...options });
  const read = async (key: string): Promise<ObjectStat | null> => {
    const stat = await store().stat(key);
    return stat ? { size: stat.size, etag: stat.etag } : null;
  };
  return {
    stat: (key, { signedOutReader }) => (signedOutReader && itemIdOfKey(key) !== null ? kept.read(key, () => read(key)) : read(key)),
  };
}
