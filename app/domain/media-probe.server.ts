import { parseWorkerConfig } from "~/env.server";
import type { VideoContainer } from "~/formats/media-format";
import { probeVideoStream } from "~/tools/ffprobe.server";

/**
 * A stored video's real duration and display size, read with the configured ffprobe (FFPROBE_BIN, as the worker
 * reads it; app/tools/ffprobe.server.ts runs it), the demuxer forced to the container the magic bytes named.
 */
export interface VideoProbe {
  duration: number;
  /** Display size: coded size × sample aspect ratio (rotation does not change the aspect rule). */
  width: number;
  height: number;
  codec: string | null;
}

/** Null when ffprobe finds no decodable video stream with a size and a duration. */
export async function probeVideo({ input, container }: { input: string; container: VideoContainer }): Promise<VideoProbe | null> {
  const stream = await probeVideoStream({ bin: parseWorkerConfig().FFPROBE_BIN, input, container });
  if (!stream) return null;
  return { duration: stream.duration, width: Math.round(stream.width * stream.sampleAspect), height: stream.height, codec: stream.codec };
}
