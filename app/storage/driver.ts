import type { Readable } from "node:stream";
import type { DeclaredModelType } from "~/formats/model-format";

/** What every storage backend offers. Keys are server-generated (see app/storage/keys.ts). */
export interface StorageDriver {
  /** A URL the browser PUTs raw bytes to (SPEC: `PUT {signed url}`). */
  createUploadUrl(input: UploadUrlInput): Promise<string>;
  /** A URL that GETs the object, valid for `expiresInSeconds`. */
  createDownloadUrl(input: { key: string; expiresInSeconds: number; fileName?: string }): Promise<string>;
  stat(key: string): Promise<{ size: number; etag: string; modifiedAt: Date } | null>;
  /** The first `length` bytes (fewer when the object is shorter). */
  readHead(key: string, length: number): Promise<Uint8Array>;
  createReadStream(key: string, range?: { start: number; end: number }): Promise<Readable>;
  write(key: string, body: Readable | Uint8Array, options?: { contentType?: string }): Promise<number>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  list(prefix: string): Promise<Array<{ key: string; size: number }>>;

  /**
   * Resumable uploads in parts, with S3 multipart semantics: one upload in parts per key, a signed
   * PUT URL per part (each part may be retried on its own after a dropped connection), then one
   * completion that assembles the object at `key`. Part sizes come from `partSizeFor`.
   */
  createMultipartUpload(input: MultipartUploadInput): Promise<{ partUrls: string[] }>;
  /**
   * Assembles the object from its parts once all are there. `none` when no upload in parts is open
   * for the key; `incomplete` names the missing or wrongly sized parts (1-based).
   */
  completeMultipartUpload(input: { key: string; size: number; partSize: number }): Promise<
    { status: "completed"; size: number } | { status: "none" } | { status: "incomplete"; parts: number[] }
  >;
  abortMultipartUpload(key: string): Promise<void>;
}

export interface MultipartUploadInput {
  key: string;
  /** The whole file's size; every part but the last is exactly `partSize`. */
  size: number;
  partSize: number;
  expiresInSeconds: number;
  contentType?: string;
}

export interface UploadUrlInput {
  key: string;
  expiresInSeconds: number;
  maxBytes: number;
  contentType?: string;
  /** A model type the bytes must match (checked while receiving when the driver can). */
  expect?: DeclaredModelType;
}

/** Expected size of each part (1-based order) of an upload in parts. */
export function expectedPartSizes(size: number, partSize: number): number[] {
  const count = Math.max(1, Math.ceil(size / partSize));
  return Array.from({ length: count }, (_, i) => Math.min(partSize, size - i * partSize));
}
