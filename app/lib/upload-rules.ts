/**
 * The Upload dialog's rules (SPEC §5, §9) as pure functions. The dialog and the server both call
 * them (STYLE habit 6), so the browser's checks and the API's checks can never drift apart.
 */
export const MODEL_EXTENSIONS = ["glb", "ply", "ksplat"] as const;
export const IMAGE_EXTENSIONS = ["jpg", "jpeg", "png", "webp", "heic", "heif", "tif", "tiff", "bmp"] as const;
export const VIDEO_EXTENSIONS = ["mp4", "mov", "m4v", "webm", "mkv", "avi"] as const;

export const MESSAGES = {
  mixedTypes: "Cannot upload multiple types of files at the same time.",
  tooManyOfType: "Cannot upload more than one file of the selected type at once.",
  noExtension: "The file must have an extension.",
  unsupportedType: "This file type is not supported. Choose a .glb, .ply or .ksplat model, images or a video.",
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

export function classifyFile(file: Pick<SelectedFile, "name" | "type">): FileKind | null {
  const ext = fileExtension(file.name);
  if (ext && (MODEL_EXTENSIONS as readonly string[]).includes(ext)) return "model";
  if (file.type?.startsWith("image/") || (ext && (IMAGE_EXTENSIONS as readonly string[]).includes(ext))) return "image";
  if (file.type?.startsWith("video/") || (ext && (VIDEO_EXTENSIONS as readonly string[]).includes(ext))) return "video";
  return null;
}

/**
 * Checks a whole selection. Mixed kinds and a second model or video are refused; the caller then
 * reverts the selection to what it was before (SPEC §5).
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
  return { ok: true, kind };
}

/** Whether the selection may hold more than one file (the Add More Files button). */
export function allowsMoreFiles(kind: FileKind | null): boolean {
  return kind === null || kind === "image";
}

/** Human-readable size, base 1024, up to 2 decimals (SPEC §9). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 B";
  const units = ["B", "KB", "MB", "GB", "TB"];
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${parseFloat(value.toFixed(2))} ${units[exponent]}`;
}
