import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { StorageDriver, UploadUrlInput } from "./driver";

export interface S3Config {
  bucket: string;
  region?: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
}

/**
 * Any S3-compatible store (AWS S3, GCS interop, R2, MinIO). Presigned PUTs cannot enforce a size or
 * a type, so the upload confirmation (domain/uploads) checks both from the stored bytes.
 */
export class S3Storage implements StorageDriver {
  private readonly client: S3Client;
  constructor(private readonly config: S3Config) {
    this.client = new S3Client({
      region: config.region ?? "auto",
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
    });
  }

  createUploadUrl(input: UploadUrlInput) {
    return getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.config.bucket, Key: input.key, ContentType: input.contentType }),
      { expiresIn: input.expiresInSeconds },
    );
  }

  createDownloadUrl(input: { key: string; expiresInSeconds: number; fileName?: string }) {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.config.bucket,
        Key: input.key,
        ResponseContentDisposition: input.fileName ? `attachment; filename="${input.fileName}"` : undefined,
      }),
      { expiresIn: input.expiresInSeconds },
    );
  }

  async stat(key: string) {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return { size: Number(head.ContentLength ?? 0), etag: head.ETag ?? "", modifiedAt: head.LastModified ?? new Date(0) };
    } catch {
      return null;
    }
  }

  async readHead(key: string, length: number) {
    const result = await this.client.send(
      new GetObjectCommand({ Bucket: this.config.bucket, Key: key, Range: `bytes=0-${length - 1}` }),
    );
    const bytes = await result.Body?.transformToByteArray();
    return bytes ?? new Uint8Array();
  }

  async createReadStream(key: string, range?: { start: number; end: number }) {
    const result = await this.client.send(
      new GetObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    return result.Body as Readable;
  }

  async write(key: string, body: Readable | Uint8Array, options?: { contentType?: string }) {
    const bytes = body instanceof Uint8Array ? body : Buffer.concat(await body.toArray());
    await this.client.send(
      new PutObjectCommand({ Bucket: this.config.bucket, Key: key, Body: bytes, ContentType: options?.contentType }),
    );
    return bytes.length;
  }

  async delete(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
  }

  async list(prefix: string) {
    const out: Array<{ key: string; size: number }> = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) out.push({ key: object.Key!, size: Number(object.Size ?? 0) });
      token = page.NextContinuationToken;
    } while (token);
    return out;
  }

  async deletePrefix(prefix: string) {
    const objects = await this.list(prefix);
    for (let i = 0; i < objects.length; i += 1000) {
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.config.bucket,
          Delete: { Objects: objects.slice(i, i + 1000).map((o) => ({ Key: o.key })) },
        }),
      );
    }
  }
}
