import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomUUID } from "node:crypto";
import { expectedPartSizes, type MultipartUploadInput, type StorageDriver, type UploadUrlInput } from "./driver";
import { requestOrigin } from "~/lib/request-origin.server";
import { isSafeKey } from "./keys";
import { buildSignedPath } from "./signing.server";

/** Stores objects as files under one folder; the app itself serves the signed URLs (routes/storage.$.ts). */
export class LocalDiskStorage implements StorageDriver {
  readonly root: string;
  constructor(
    root: string,
    private readonly secret: string,
    private readonly baseUrl: string,
  ) {
    this.root = path.resolve(root);
  }

  pathOf(key: string): string {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return path.join(this.root, ...key.split("/"));
  }

  /** Signed URLs point at the origin the current request came to (else APP_URL): issue 17 item 2. */
  private absolute(signedPath: string): string {
    return new URL(signedPath, requestOrigin() ?? this.baseUrl).toString();
  }

  private expiry(seconds: number) {
    return Math.floor(Date.now() / 1000) + seconds;
  }

  async createUploadUrl(input: UploadUrlInput): Promise<string> {
    const signed = buildSignedPath(
      { method: "PUT", key: input.key, expires: this.expiry(input.expiresInSeconds), max: input.maxBytes, expect: input.expect },
      this.secret,
    );
    return this.absolute(signed);
  }

  async createDownloadUrl(input: { key: string; expiresInSeconds: number; fileName?: string }): Promise<string> {
    const signed = buildSignedPath(
      { method: "GET", key: input.key, expires: this.expiry(input.expiresInSeconds), name: input.fileName },
      this.secret,
    );
    return this.absolute(signed);
  }

  async stat(key: string) {
    try {
      const s = await stat(this.pathOf(key));
      if (!s.isFile()) return null;
      return { size: s.size, modifiedAt: s.mtime, etag: `"${s.size.toString(16)}-${s.mtimeMs.toString(16)}"` };
    } catch {
      return null;
    }
  }

  async readHead(key: string, length: number): Promise<Uint8Array> {
    const handle = await open(this.pathOf(key), "r");
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, 0);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async createReadStream(key: string, range?: { start: number; end: number }) {
    return createReadStream(this.pathOf(key), range);
  }

  async write(key: string, body: Readable | Uint8Array): Promise<number> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}.part`;
    try {
      await pipeline(body instanceof Uint8Array ? Readable.from([body]) : body, createWriteStream(temp));
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return (await stat(target)).size;
  }

  async delete(key: string) {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string) {
    const clean = prefix.replace(/\/+$/, "");
    if (!isSafeKey(clean)) throw new Error(`unsafe storage prefix: ${prefix}`);
    await rm(this.pathOf(clean), { recursive: true, force: true });
  }

  async list(prefix: string) {
    const clean = prefix.replace(/\/+$/, "");
    const out: Array<{ key: string; size: number }> = [];
    const walk = async (dir: string, keyPrefix: string) => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (entry.name.endsWith(".part")) continue;
        const full = path.join(dir, entry.name);
        const key = `${keyPrefix}/${entry.name}`;
        if (entry.isDirectory()) await walk(full, key);
        else out.push({ key, size: (await stat(full)).size });
      }
    };
    await walk(this.pathOf(clean), clean);
    return out.sort((a, b) => a.key.localeCompare(b.key));
  }

  // Uploads in parts: each part is an ordinary object under `<key>.parts/`, PUT through its own
  // signed URL (limited to that part's exact size); completion concatenates them into `key`.
  private partsPrefix(key: string) {
    return `${key}.parts`;
  }

  private partKey(key: string, partNumber: number) {
    return `${this.partsPrefix(key)}/${String(partNumber).padStart(5, "0")}`;
  }

  async createMultipartUpload(input: MultipartUploadInput) {
    const sizes = expectedPartSizes(input.size, input.partSize);
    const partUrls = await Promise.all(
      sizes.map((size, i) =>
        this.createUploadUrl({ key: this.partKey(input.key, i + 1), expiresInSeconds: input.expiresInSeconds, maxBytes: size }),
      ),
    );
    await mkdir(this.pathOf(this.partsPrefix(input.key)), { recursive: true });
    return { partUrls };
  }

  async completeMultipartUpload(input: { key: string; size: number; partSize: number }) {
    const folder = this.pathOf(this.partsPrefix(input.key));
    const present = await stat(folder).catch(() => null);
    if (!present?.isDirectory()) return { status: "none" as const };
    const sizes = expectedPartSizes(input.size, input.partSize);
    const stored = new Map((await this.list(this.partsPrefix(input.key))).map((part) => [part.key, part.size]));
    const wrong = sizes.flatMap((size, i) => (stored.get(this.partKey(input.key, i + 1)) === size ? [] : [i + 1]));
    if (wrong.length > 0) return { status: "incomplete" as const, parts: wrong };
    const target = this.pathOf(input.key);
    const temp = `${target}.${randomUUID()}.part`;
    const out = await open(temp, "w");
    try {
      for (let i = 1; i <= sizes.length; i++) {
        for await (const chunk of createReadStream(this.pathOf(this.partKey(input.key, i)), { highWaterMark: 1024 * 1024 })) {
          await out.write(chunk as Buffer);
        }
      }
      await out.close();
      await rename(temp, target);
    } catch (error) {
      await out.close().catch(() => undefined);
      await rm(temp, { force: true });
      throw error;
    }
    await rm(folder, { recursive: true, force: true });
    return { status: "completed" as const, size: (await stat(target)).size };
  }

  async abortMultipartUpload(key: string) {
    await rm(this.pathOf(this.partsPrefix(key)), { recursive: true, force: true });
  }
}
