/**
 * What a model's downloads are (pure: the API, the model page and tests share it). The rules of who
 * gets which file are in downloads.server.ts; docs/decisions/025-downloads.md explains them.
 */
export const DOWNLOAD_KINDS = [
  // The model file as its owner uploaded it (.glb, .ply, .ksplat, …).
  "model",
  // A scan's splat as the worker made it: trained, or built from the dense points (a preview).
  "splat",
  // The compact copy viewers are served (.sog), made from the model or splat above.
  "delivery",
  // A scan's textured mesh (GLB) and its light level (≤ 50k triangles).
  "mesh",
  "mesh_lite",
  // A scan's input: the video, or each photo of the set. Its owner's only, whatever the setting.
  "video",
  "photo",
] as const;
export type DownloadKind = (typeof DOWNLOAD_KINDS)[number];

/** Kinds that only the owner ever downloads: a scan's input may show more than the model does. */
export const OWNER_ONLY_KINDS: ReadonlySet<DownloadKind> = new Set(["video", "photo"]);

export const DOWNLOAD_LABELS: Record<DownloadKind, string> = {
  model: "Model file (as uploaded)",
  splat: "Splat (.ply)",
  delivery: "Compact splat (.sog)",
  mesh: "Textured mesh (.glb)",
  mesh_lite: "Light mesh (.glb)",
  video: "Source video",
  photo: "Source photo",
};

export interface DownloadFileDto {
  kind: DownloadKind;
  format: string;
  file_name: string;
  size: number;
  /** A signed GET URL, valid until `expires_at`, that saves the file as `file_name`. */
  url: string;
}

export interface ItemDownloadsDto {
  item_id: string;
  allow_downloads: boolean;
  expires_at: string;
  files: DownloadFileDto[];
}

/** A file name's stem from a model's name: letters, digits, spaces, dots and dashes kept, the rest `_`. */
export function safeFileStem(name: string): string {
  const stem = name.replace(/[^\w .-]+/g, "_").trim();
  return stem || "model";
}

/** The name a downloaded file is saved under (the Content-Disposition attachment name). */
export function downloadFileName({ itemName, kind, extension, sourceName }: { itemName: string; kind: DownloadKind; extension: string; sourceName?: string | null }): string {
  const stem = safeFileStem(itemName);
  const ext = extension.toLowerCase();
  switch (kind) {
    case "mesh":
      return `${stem} mesh.${ext}`;
    case "mesh_lite":
      return `${stem} mesh lite.${ext}`;
    case "video":
      return `${stem} video.${ext}`;
    case "photo":
      return `${stem} ${safeFileStem(sourceName ?? "photo").replace(/\.[^.]*$/, "")}.${ext}`;
    default:
      return `${stem}.${ext}`;
  }
}

/** The extension of a storage key (`items/…/model/<uuid>.glb` → `glb`); null when it has none. */
export function keyExtension(key: string): string | null {
  const last = key.split("/").pop() ?? "";
  const dot = last.lastIndexOf(".");
  return dot > 0 ? last.slice(dot + 1).toLowerCase() : null;
}
