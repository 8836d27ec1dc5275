import { DECLARED_MODEL_TYPES } from "~/formats/model-format";

/**
 * The Upload dialog's rules (SPEC §5, §9) as pure functions. The dialog and the server both call
 * them (STYLE habit 6), so the browser's checks and the API's checks can never drift apart.
 */
/** Model files the dialog takes: one per declared model type (docs/decisions/026-more-splat-formats.md). */
export const MODEL_EXTENSIONS = DECLARED_MODEL_TYPES;
export const IMAGE_EXTENSIONS = ["jpg", "jpeg", "png", "webp", "heic", "heif", "tif", "tiff", "bmp"] as const;
export const VIDEO_EXTENSIONS = ["mp4", "mov", "m4v", "webm", "mkv", "avi"] as const;

// SPEC §9 business constants.
/** Seconds of a video a scan uses; a longer video is trimmed to its first 3 minutes. */
export const MAX_VIDEO_SECONDS = 180;
/** Videos must be 16:9 (landscape) or 9:16 (portrait), within this tolerance on the ratio. */
export const VIDEO_ASPECT_RATIO = 16 / 9;
export const VIDEO_ASPECT_TOLERANCE = 0.02;
export const MIN_IMAGES = 20;
export const MAX_IMAGES = 300;
/** A scan (one video or one image set) costs this many scan credits. */
export const SCAN_COST = 1;
// Per-file limits for scan inputs (SPEC gives none; a 3-minute 4K phone video is ~1.1 GB, a phone
// photo 3–15 MB, so these leave room without letting one upload fill the disk).
export const MAX_VIDEO_BYTES = 2 * 1024 ** 3;
export const MAX_SCAN_IMAGE_BYTES = 40 * 1024 ** 2;
// Resumable video uploads go in parts (S3 multipart semantics: ≥ 5 MiB except the last, ≤ 10,000 parts).
export const MIN_PART_BYTES = 5 * 1024 ** 2;
export const MAX_PARTS = 10_000;

export const MESSAGES = {
  mixedTypes: "Cannot upload multiple types of files at the same time.",
  tooManyOfType: "Cannot upload more than one file of the selected type at once.",
  noExtension: "The file must have an extension.",
  unsupportedType: "This file type is not supported. Choose a .glb, .ply, .ksplat, .spz, .splat or .sog model, images or a video.",
  unsupportedAspectTitle: "Currently not supported.",
  unsupportedAspect: "Only 16:9 (landscape or portrait) videos are supported.",
  videoTooLongTitle: "Max Video Length Exceeded",
  videoTooLong: "This video is longer than 3 minutes. Only the first 3 minutes will be used. Continue?",
  videoTrimmed: "Video length exceeded. The video will be trimmed, only the first 3 minutes will be used.",
  videoMetadata: "Error loading video metadata.",
  videoTooLarge: "The video is larger than 2 GB.",
  tooManyImagesTitle: "Too Many Images",
  tooManyImages: `Number of selected images exceeded the maximum of ${MAX_IMAGES} files.`,
  tooFewImages: `Number of selected images does not meet the minimum count of ${MIN_IMAGES} images.`,
  imageTooLarge: (name: string) => `${name} is larger than 40 MB.`,
  noScanCredits:
    "You have used all your available scans for this billing period. Please wait for the next cycle or upgrade your plan for more scans.",
  quotasUnavailable: "Could not fetch user scan quotas.",
  videoUploaded: "Video upload successful. Model is being processed, please give us around 20-40 mins...",
  imagesUploaded: "Images uploaded and processing started.",
  uploadFailed: (message: string) => `File not uploaded. Error: ${message}`,
} as const;

export type FileKind = "model" | "image" | "video";

export interface SelectedFile {
  name: string;
  type?: string;
  size: number;
}

export type SelectionResult =
  | { ok: true; kind: FileKind | null }
  | { ok: false; title?: string; message: string };

export function fileExtension(name: string): string | null {
  const dot = name.lastIndexOf(".");
  if (dot <= 0 || dot === name.length - 1) return null;
  return name.slice(dot + 1).toLowerCase();
}

/** The name a model gets from its file: the file name without its extension (SPEC §4). */
export function nameFromFileName(name: string): string {
  const dot = name.lastIndexOf(".");
  return (dot > 0 ? name.slice(0, dot) : name).trim() || "Untitled model";
}

/** The name of an image-set item: '{first file name} (Image Set)' (SPEC §4). */
export function imageSetName(firstFileName: string): string {
  return `${firstFileName} (Image Set)`;
}

export function classifyFile(file: Pick<SelectedFile, "name" | "type">): FileKind | null {
  const ext = fileExtension(file.name);
  if (ext && (MODEL_EXTENSIONS as readonly string[]).includes(ext)) return "model";
  if (file.type?.startsWith("image/") || (ext && (IMAGE_EXTENSIONS as readonly string[]).includes(ext))) return "image";
  if (file.type?.startsWith("video/") || (ext && (VIDEO_EXTENSIONS as readonly string[]).includes(ext))) return "video";
  return null;
}

/**
 * Checks a whole selection. Mixed kinds and a second model or video are refused; the caller then
 * reverts the selection to what it was before (SPEC §5). More than 300 images is refused with the
 * 'Too Many Images' dialog; fewer than 20 is allowed here (more can be added) and reported by
 * `imageCountProblem`, which keeps Upload disabled.
 */
export function validateSelection(files: SelectedFile[], allowedKinds: readonly FileKind[] = ["model", "image", "video"]): SelectionResult {
  if (files.length === 0) return { ok: true, kind: null };
  const kinds = new Set<FileKind>();
  for (const file of files) {
    if (!fileExtension(file.name)) return { ok: false, message: MESSAGES.noExtension };
    const kind = classifyFile(file);
    if (!kind || !allowedKinds.includes(kind)) return { ok: false, message: MESSAGES.unsupportedType };
    kinds.add(kind);
  }
  if (kinds.size > 1) return { ok: false, message: MESSAGES.mixedTypes };
  const [kind] = [...kinds];
  if ((kind === "model" || kind === "video") && files.length > 1) return { ok: false, message: MESSAGES.tooManyOfType };
  if (kind === "image" && files.length > MAX_IMAGES) {
    return { ok: false, title: MESSAGES.tooManyImagesTitle, message: MESSAGES.tooManyImages };
  }
  for (const file of files) {
    if (kind === "image" && file.size > MAX_SCAN_IMAGE_BYTES) return { ok: false, message: MESSAGES.imageTooLarge(file.name) };
    if (kind === "video" && file.size > MAX_VIDEO_BYTES) return { ok: false, message: MESSAGES.videoTooLarge };
  }
  return { ok: true, kind };
}

/** Whether the selection may hold more than one file (the Add More Files button). */
export function allowsMoreFiles(kind: FileKind | null): boolean {
  return kind === null || kind === "image";
}

/** Scan-type uploads (a video or an image set) spend scan credits. */
export function isScanKind(kind: FileKind | null): kind is "image" | "video" {
  return kind === "image" || kind === "video";
}

/**
 * The image-count rule: 20–300 images. The server treats zero as too few; the dialog shows the
 * minimum message only once at least one image is selected (SPEC §5 "but not zero").
 */
export function imageCountProblem(count: number): { title?: string; message: string } | null {
  if (count > MAX_IMAGES) return { title: MESSAGES.tooManyImagesTitle, message: MESSAGES.tooManyImages };
  if (count < MIN_IMAGES) return { message: MESSAGES.tooFewImages };
  return null;
}

/** 16:9 landscape or 9:16 portrait, within 0.02 on the long-to-short ratio (so rotation does not matter). */
export function isSupportedVideoAspect(width: number, height: number): boolean {
  if (!(width > 0 && height > 0)) return false;
  const ratio = Math.max(width, height) / Math.min(width, height);
  // The epsilon only absorbs floating-point noise at the exact ±0.02 boundary.
  return Math.abs(ratio - VIDEO_ASPECT_RATIO) <= VIDEO_ASPECT_TOLERANCE + 1e-9;
}

export interface VideoMetadata {
  duration: number;
  width: number;
  height: number;
}

/**
 * What the dialog does with a video's metadata: refuse it (wrong aspect: the 'Currently not
 * supported.' dialog), ask (longer than 180 s: the 'Max Video Length Exceeded' confirm) or accept.
 */
export function checkVideo(meta: VideoMetadata):
  | { verdict: "accept" }
  | { verdict: "confirm_trim"; title: string; message: string }
  | { verdict: "refuse"; title: string; message: string } {
  if (!isSupportedVideoAspect(meta.width, meta.height)) {
    return { verdict: "refuse", title: MESSAGES.unsupportedAspectTitle, message: MESSAGES.unsupportedAspect };
  }
  if (meta.duration > MAX_VIDEO_SECONDS) {
    return { verdict: "confirm_trim", title: MESSAGES.videoTooLongTitle, message: MESSAGES.videoTooLong };
  }
  return { verdict: "accept" };
}

/** The seconds of a video a scan asks for: all of it, or the first 180 s of a longer one. */
export function scanDuration(duration: number): number {
  return Math.min(duration, MAX_VIDEO_SECONDS);
}

/** SPEC §3 Quotas, as GET /v1/user/quotas answers them. -1 means unlimited. */
export interface UserQuotas {
  link_quota: number;
  link_credit: number;
  scan_quota: number;
  /** What is left of this period's plan grant (-1 when scan_quota is -1). */
  scan_credit: number;
  /** Purchased scans; they carry over between periods. */
  topup_scan_credit: number;
  /** scan_credit + topup_scan_credit (-1 when scan_quota is -1). */
  total_scan_credit: number;
  annotation_quota: number;
  embed_quota: number;
  embed_credit: number;
}

/** The quota fields the scan-credit rule reads. */
export type ScanQuota = Pick<UserQuotas, "scan_quota" | "total_scan_credit">;

/** Scan-type uploads are allowed while scan credits remain, or always when scan_quota is -1 (unlimited). */
export function hasScanCredits(quota: ScanQuota): boolean {
  return quota.scan_quota === -1 || quota.total_scan_credit >= SCAN_COST;
}

/** The stored name of the n-th image of a set (0-based): image-001.jpg … keeping the extension. */
export function imageUploadName(index: number, originalName: string): string {
  const ext = fileExtension(originalName) ?? "jpg";
  return `image-${String(index + 1).padStart(3, "0")}.${ext}`;
}

const IMAGE_UPLOAD_NAME = /^image-(\d{3})\.([a-z0-9]+)$/;

/** Parses a stored image name; null unless it is image-NNN.<image extension> with NNN ≥ 001. */
export function parseImageUploadName(name: string): { number: number; extension: string } | null {
  const match = IMAGE_UPLOAD_NAME.exec(name);
  if (!match) return null;
  const number = Number(match[1]);
  if (number < 1 || !(IMAGE_EXTENSIONS as readonly string[]).includes(match[2])) return null;
  return { number, extension: match[2] };
}

/** The part size for a resumable upload of `size` bytes: 8 MiB, larger only to stay within 10,000 parts. */
export function partSizeFor(size: number): number {
  const preferred = 8 * 1024 ** 2;
  return Math.max(MIN_PART_BYTES, preferred, Math.ceil(size / MAX_PARTS));
}

/** Byte ranges [start, end) of each part, in order. */
export function partRanges(size: number, partSize: number): Array<{ start: number; end: number }> {
  const ranges: Array<{ start: number; end: number }> = [];
  for (let start = 0; start < size; start += partSize) ranges.push({ start, end: Math.min(size, start + partSize) });
  return ranges.length > 0 ? ranges : [{ start: 0, end: 0 }];
}

/** Human-readable size, base 1024, up to 2 decimals (SPEC §9). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 B";
  const units = ["B", "KB", "MB", "GB", "TB"];
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${parseFloat(value.toFixed(2))} ${units[exponent]}`;
}
