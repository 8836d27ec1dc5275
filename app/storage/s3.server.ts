import { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type Part,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { expectedPartSizes, type MultipartUploadInput, type StorageDriver, type UploadUrlInput } from "./driver";

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
      // Checksums only where S3 requires them: by default the SDK signs into every presigned PUT the
      // CRC32 of an *empty* body, and S3 then refuses the browser's real bytes (BadDigest). Found by
      // the contract test against an S3 server that checks them (scripts/lib/s3-server.mjs).
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
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
    for (const upload of await this.openMultipartUploads(prefix)) {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.config.bucket, Key: upload.key, UploadId: upload.uploadId }));
    }
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

  // Uploads in parts map 1:1 onto S3 multipart uploads. Each part URL signs its exact Content-Length,
  // so a part cannot be larger than announced.
  async createMultipartUpload(input: MultipartUploadInput) {
    await this.abortMultipartUpload(input.key);
    const created = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.config.bucket, Key: input.key, ContentType: input.contentType }),
    );
    const uploadId = created.UploadId!;
    const partUrls = await Promise.all(
      expectedPartSizes(input.size, input.partSize).map((size, i) =>
        getSignedUrl(
          this.client,
          new UploadPartCommand({ Bucket: this.config.bucket, Key: input.key, UploadId: uploadId, PartNumber: i + 1, ContentLength: size }),
          { expiresIn: input.expiresInSeconds },
        ),
      ),
    );
    return { partUrls };
  }

  private async openMultipartUploads(prefix: string) {
    const out: Array<{ key: string; uploadId: string }> = [];
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({ Bucket: this.config.bucket, Prefix: prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
      );
      for (const upload of page.Uploads ?? []) out.push({ key: upload.Key!, uploadId: upload.UploadId! });
      if (!page.IsTruncated) return out;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  async completeMultipartUpload(input: { key: string; size: number; partSize: number }) {
    const upload = (await this.openMultipartUploads(input.key)).find((u) => u.key === input.key);
    if (!upload) return { status: "none" as const };
    const parts: Part[] = [];
    let marker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListPartsCommand({ Bucket: this.config.bucket, Key: input.key, UploadId: upload.uploadId, PartNumberMarker: marker }),
      );
      parts.push(...(page.Parts ?? []));
      if (!page.IsTruncated) break;
      marker = page.NextPartNumberMarker;
    }
    const byNumber = new Map(parts.map((part) => [part.PartNumber!, part]));
    const sizes = expectedPartSizes(input.size, input.partSize);
    const wrong = sizes.flatMap((size, i) => (byNumber.get(i + 1)?.Size === size ? [] : [i + 1]));
    if (wrong.length > 0) return { status: "incomplete" as const, parts: wrong };
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.config.bucket,
        Key: input.key,
        UploadId: upload.uploadId,
        MultipartUpload: { Parts: sizes.map((_, i) => ({ PartNumber: i + 1, ETag: byNumber.get(i + 1)!.ETag })) },
      }),
    );
    return { status: "completed" as const, size: input.size };
  }

  async abortMultipartUpload(key: string) {
    for (const upload of (await this.openMultipartUploads(key)).filter((u) => u.key === key)) {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.config.bucket, Key: key, UploadId: upload.uploadId }));
    }
  }
}
