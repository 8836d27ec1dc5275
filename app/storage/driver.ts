import type { Readable } from "node:stream";

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
}

export interface UploadUrlInput {
  key: string;
  expiresInSeconds: number;
  maxBytes: number;
  contentType?: string;
  /** A model type the bytes must match (checked while receiving when the driver can). */
  expect?: "glb" | "ply" | "ksplat";
}
