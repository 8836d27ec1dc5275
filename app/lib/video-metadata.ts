import type { VideoMetadata } from "./upload-rules";
import { MAGIC_BYTES } from "~/formats/media-format";

/**
 * Reads a video file's duration and display size in the browser, the way the dialog checks SPEC §5
 * before uploading. Rejects when the browser cannot read it ('Error loading video metadata.').
 */
export function readVideoMetadata(file: Blob, timeoutMs = 20_000): Promise<VideoMetadata> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement("video");
    const done = (outcome: () => void) => {
      clearTimeout(timer);
      video.onloadedmetadata = null;
      video.onerror = null;
      video.removeAttribute("src");
      video.load();
      URL.revokeObjectURL(url);
      outcome();
    };
    const timer = setTimeout(() => done(() => reject(new Error("timed out reading the video's metadata"))), timeoutMs);
    video.preload = "metadata";
    video.muted = true;
    video.onloadedmetadata = () => {
      const meta = { duration: video.duration, width: video.videoWidth, height: video.videoHeight };
      done(() =>
        Number.isFinite(meta.duration) && meta.duration > 0 && meta.width > 0 && meta.height > 0
          ? resolve(meta)
          : reject(new Error("the video has no readable duration or size")),
      );
    };
    video.onerror = () => done(() => reject(new Error(video.error?.message || "the browser cannot read this video")));
    video.src = url;
  });
}

/** The first bytes of a file, for the magic-byte checks of ~/formats/media-format. */
export async function readMagicBytes(file: Blob): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, MAGIC_BYTES).arrayBuffer());
}
