/**
 * SPEC §5/§9: image files up to 2 MB (2*1024*1024) of type jpeg, png, webp or gif. Used for avatars
 * and model thumbnails; checked in the browser before upload and by magic bytes on the server.
 */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_MIME_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];
export const IMAGE_ACCEPT = IMAGE_MIME_TYPES.join(",");

/** The image type of the first bytes of a file, or null when it is none of the four. */
export function detectImageType(head: Uint8Array): ImageMimeType | null {
  const b = head;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v)) return "image/png";
  const ascii = (start: number, end: number) => String.fromCharCode(...b.subarray(start, end));
  if (b.length >= 6 && (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a")) return "image/gif";
  if (b.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return null;
}

/** A message for a file the browser is about to upload, or null when it is acceptable. */
export function checkImageFile(file: { size: number; type: string }): string | null {
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return "Choose a JPEG, PNG, WebP or GIF image.";
  if (file.size > IMAGE_MAX_BYTES) return "The image is larger than 2 MB.";
  if (file.size === 0) return "The image is empty.";
  return null;
}
