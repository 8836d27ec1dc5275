import type { ApiClient } from "../lib/api-client";
import { IMAGE_LINKS_PER_REQUEST } from "~/domain/schemas";
import {
  fileExtension,
  imageSetName,
  imageUploadName,
  nameFromFileName,
  partRanges,
  scanDuration,
  type VideoMetadata,
} from "../lib/upload-rules";
import type { DeclaredModelType } from "~/formats/model-format";
import type { License } from "~/domain/item-details";

/**
 * The upload flows of SPEC §4, run by the Upload dialog. Each creates an item first and, on any
 * failure, deletes it again before re-throwing (the dialog then shows 'File not uploaded. Error: …').
 * Byte transfers retry with exponential backoff; image sets upload several files at a time; a video
 * goes in parts, so a dropped connection costs one part, not the whole file.
 */
export interface UploadUrl {
  path: string;
  url: string;
}

export interface VideoUploadUrl extends UploadUrl {
  part_size?: number;
  part_urls?: string[];
}

/** A PUT that failed: `status` is null when the connection itself failed. */
export class TransferError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = "TransferError";
  }
}

/** PUTs `body` to a signed URL, reporting bytes sent. */
export type PutBlob = (url: string, body: Blob, onProgress: (loaded: number) => void) => Promise<void>;

/** The browser's PUT (XHR, for upload progress). */
export const xhrPut: PutBlob = (url, body, onProgress) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let message = `Upload failed with status ${xhr.status}`;
      try {
        message = JSON.parse(xhr.responseText).message ?? message;
      } catch {
        // keep the status message
      }
      reject(new TransferError(message, xhr.status));
    };
    xhr.onerror = () => reject(new TransferError("The connection was lost during the upload.", null));
    xhr.ontimeout = xhr.onerror;
    xhr.send(body);
  });

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  /** Resolves once the browser is back online (immediately outside a browser). */
  waitUntilOnline: () => Promise<void>;
}

function waitUntilOnline(): Promise<void> {
  if (typeof navigator === "undefined" || typeof window === "undefined" || navigator.onLine !== false) return Promise.resolve();
  return new Promise((resolve) => window.addEventListener("online", () => resolve(), { once: true }));
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 15_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  waitUntilOnline,
};

/** Failures worth another try: the connection dropped, a timeout, throttling, or a server error. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof TransferError) return error.status === null || error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
  if (error instanceof TypeError) return true; // fetch's network failure
  const status = (error as { status?: unknown })?.status;
  return typeof status === "number" && (status === 408 || status === 429 || status >= 500);
}

/** Runs `task` until it succeeds, waiting 0.5 s, 1 s, 2 s … (with jitter) between retryable failures. */
export async function withRetry<T>(task: (attempt: number) => Promise<T>, policy: RetryPolicy = DEFAULT_RETRY): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task(attempt);
    } catch (error) {
      if (attempt >= policy.attempts || !isRetryable(error)) throw error;
      await policy.waitUntilOnline();
      const delay = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      await policy.sleep(delay * (0.75 + Math.random() * 0.5));
    }
  }
}

/** Runs `worker` over `items`, `concurrency` at a time; stops starting new ones after the first failure. */
export async function runPool<T>(items: T[], concurrency: number, worker: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        await worker(items[index], index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  });
  const results = await Promise.allSettled(lanes);
  const rejected = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (rejected) throw rejected.reason;
}

export interface TransferOptions {
  put?: PutBlob;
  retry?: RetryPolicy;
}

/**
 * Uploads `file` in parts to the signed part URLs, a few at a time. A part that fails is retried on
 * its own; parts already sent are never sent again. Reports total bytes sent.
 */
export async function uploadInParts({
  file,
  partUrls,
  partSize,
  concurrency = 3,
  put = xhrPut,
  retry = DEFAULT_RETRY,
  onProgress,
}: {
  file: Blob;
  partUrls: string[];
  partSize: number;
  concurrency?: number;
  onProgress?: (loaded: number, total: number) => void;
} & TransferOptions): Promise<void> {
  const ranges = partRanges(file.size, partSize);
  if (ranges.length !== partUrls.length) throw new Error(`Expected ${ranges.length} part links, got ${partUrls.length}.`);
  const sent = new Array<number>(ranges.length).fill(0);
  const report = () => onProgress?.(sent.reduce((a, b) => a + b, 0), file.size);
  await runPool(ranges, concurrency, async ({ start, end }, index) => {
    await withRetry(async () => {
      sent[index] = 0;
      report();
      await put(partUrls[index], file.slice(start, end), (loaded) => {
        sent[index] = Math.min(loaded, end - start);
        report();
      });
      sent[index] = end - start;
      report();
    }, retry);
  });
}

/**
 * What the creator wrote about the model in the dialog (issue 35 item 3): each field left empty keeps SPEC's
 * default (the name from the file, no description, no category, no tags, all rights reserved).
 */
export interface UploadDetails {
  name?: string;
  description?: string;
  category_id?: string | null;
  tags?: string[];
  license?: License;
}

/**
 * The PATCH body that applies the details (null when there is nothing to apply). `details` is read when the bytes
 * are up, not when the upload starts, so what the creator typed while it ran is kept.
 */
export function detailsPatch(details: UploadDetails | undefined, defaultName?: string): Record<string, unknown> | null {
  const body: Record<string, unknown> = {};
  const name = details?.name?.trim();
  if (name) body.name = name;
  else if (defaultName) body.name = defaultName;
  if (details?.description?.trim()) body.description = details.description.trim();
  if (details?.category_id) body.category_id = details.category_id;
  if (details?.tags?.length) body.tags = details.tags;
  if (details?.license) body.license = details.license;
  return Object.keys(body).length > 0 ? body : null;
}

async function applyDetails(api: ApiClient, itemId: string, details: (() => UploadDetails) | undefined, defaultName?: string) {
  const body = detailsPatch(details?.(), defaultName);
  if (body) await api(`/item/${itemId}`, { method: "PATCH", body });
}

async function deleteQuietly(api: ApiClient, itemId: string) {
  await api(`/item/${itemId}`, { method: "DELETE" }).catch(() => undefined);
}

/**
 * The model-file flow of SPEC §4: create item → upload link → PUT the file → report its size →
 * name it after the file (or as the creator named it, with the rest of the dialog's details).
 * Returns the new item's id (the caller goes to /item/{id}).
 */
export async function uploadModelFile({
  api,
  file,
  details,
  onProgress,
}: {
  api: ApiClient;
  file: File;
  details?: () => UploadDetails;
  onProgress?: (loaded: number, total: number) => void;
}): Promise<string> {
  const modelType = fileExtension(file.name) as DeclaredModelType;
  const { item_id: itemId } = await api<{ item_id: string }>("/item", {
    method: "POST",
    body: { model_type: modelType, upload_type: "model" },
  });
  try {
    const upload = await api<UploadUrl>(`/upload/item/${itemId}`, { query: { uploadType: "model" } });
    await xhrPut(upload.url, file, (loaded) => onProgress?.(loaded, file.size));
    await api(`/item/${itemId}/file/size`, { method: "POST", body: { size: file.size } });
    await applyDetails(api, itemId, details, nameFromFileName(file.name));
    return itemId;
  } catch (error) {
    await deleteQuietly(api, itemId);
    throw error;
  }
}

/**
 * The video flow of SPEC §4: create item (ply, video, named after the file) → video upload link →
 * the file in resumable parts → start the scan with duration, width, height and path. A video
 * longer than 180 s asks for its first 180 s (the user accepted the trim in the dialog).
 */
export async function uploadVideoScan({
  api,
  file,
  metadata,
  details,
  onProgress,
  ...transfer
}: {
  api: ApiClient;
  file: File;
  metadata: VideoMetadata;
  details?: () => UploadDetails;
  onProgress?: (loaded: number, total: number) => void;
} & TransferOptions): Promise<string> {
  const { item_id: itemId } = await api<{ item_id: string }>("/item", {
    method: "POST",
    body: { model_type: "ply", upload_type: "video", name: nameFromFileName(file.name) },
  });
  try {
    const link = await withRetry(
      () => api<VideoUploadUrl>(`/upload/video/${itemId}`, { query: { size: file.size, filename: file.name } }),
      transfer.retry,
    );
    if (link.part_urls && link.part_size) {
      await uploadInParts({ file, partUrls: link.part_urls, partSize: link.part_size, onProgress, ...transfer });
    } else {
      const put = transfer.put ?? xhrPut;
      await withRetry(() => put(link.url, file, (loaded) => onProgress?.(loaded, file.size)), transfer.retry);
    }
    await applyDetails(api, itemId, details);
    await api(`/scan/video/${itemId}`, {
      method: "POST",
      body: {
        duration: scanDuration(metadata.duration),
        width: metadata.width,
        height: metadata.height,
        input_bucket_path: link.path,
      },
    });
    return itemId;
  } catch (error) {
    await deleteQuietly(api, itemId);
    throw error;
  }
}

/**
 * The image-set flow of SPEC §4: create item (ply, image, '{first file name} (Image Set)') → the
 * folder path → each file as image-001, image-002 … keeping its extension, several at a time →
 * start the scan.
 */
export async function uploadImageSetScan({
  api,
  files,
  concurrency = 4,
  details,
  onFileProgress,
  ...transfer
}: {
  api: ApiClient;
  files: File[];
  concurrency?: number;
  details?: () => UploadDetails;
  onFileProgress?: (index: number, loaded: number, total: number) => void;
} & TransferOptions): Promise<string> {
  const put = transfer.put ?? xhrPut;
  const { item_id: itemId } = await api<{ item_id: string }>("/item", {
    method: "POST",
    body: { model_type: "ply", upload_type: "image", name: imageSetName(files[0].name) },
  });
  try {
    const folder = await withRetry(() => api<UploadUrl>(`/upload/image/${itemId}`), transfer.retry);
    // Links come in batches (one request per IMAGE_LINKS_PER_REQUEST photos); the next batch is asked for
    // while this one uploads, so the PUT lanes never wait on an API round trip.
    const batches = new Map<number, Promise<Map<string, UploadUrl>>>();
    const batchFor = (batch: number) => {
      const from = batch * IMAGE_LINKS_PER_REQUEST;
      if (from >= files.length) return null;
      let links = batches.get(batch);
      if (!links) {
        const filenames = files.slice(from, from + IMAGE_LINKS_PER_REQUEST).map((file, i) => imageUploadName(from + i, file.name));
        links = withRetry(
          () => api<{ files: Array<UploadUrl & { filename: string }> }>(`/upload/image/${itemId}/files`, { method: "POST", body: { filenames } }),
          transfer.retry,
        ).then(({ files: signed }) => new Map(signed.map((link) => [link.filename, link])));
        links.catch(() => undefined); // awaited (and reported) by the lanes that upload these files
        batches.set(batch, links);
      }
      return links;
    };
    await runPool(files, concurrency, async (file, index) => {
      const batch = Math.floor(index / IMAGE_LINKS_PER_REQUEST);
      const link = (await batchFor(batch)!).get(imageUploadName(index, file.name))!;
      if (index % IMAGE_LINKS_PER_REQUEST >= IMAGE_LINKS_PER_REQUEST / 2) batchFor(batch + 1);
      await withRetry(async () => {
        onFileProgress?.(index, 0, file.size);
        await put(link.url, file, (loaded) => onFileProgress?.(index, Math.min(loaded, file.size), file.size));
        onFileProgress?.(index, file.size, file.size);
      }, transfer.retry);
    });
    await applyDetails(api, itemId, details);
    await api(`/scan/image/${itemId}`, { method: "POST", body: { input_bucket_path: folder.path } });
    return itemId;
  } catch (error) {
    await deleteQuietly(api, itemId);
    throw error;
  }
}
