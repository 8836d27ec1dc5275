import { env } from "~/env.server";
import type { StorageDriver } from "./driver";
import { LocalDiskStorage } from "./local-disk.server";
import { S3Storage } from "./s3.server";

let instance: StorageDriver | undefined;

/** The configured storage driver (local disk by default, S3-compatible in production). */
export function storage(): StorageDriver {
  if (!instance) {
    const e = env();
    instance =
      e.STORAGE_DRIVER === "s3"
        ? new S3Storage({
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          })
        : new LocalDiskStorage(e.STORAGE_DIR, e.STORAGE_SIGNING_SECRET, e.APP_URL);
  }
  return instance;
}

export function localStorageDriver(): LocalDiskStorage | null {
  const driver = storage();
  return driver instanceof LocalDiskStorage ? driver : null;
}

export type { StorageDriver } from "./driver";
