import { execFile } from "node:child_process";
import { z } from "zod";

/**
 * ffprobe (Debian's ffmpeg), in one place (issue 39: the upload check and the worker's ingest each had a wrapper,
 * with their own schemas and time limits, and one ignored FFPROBE_BIN). It runs with an argument array (never a
 * shell string), with only the `file` protocol (or https for a signed URL) and, when the caller knows it, the
 * demuxer forced to the container the magic bytes named — so a crafted file cannot make it read playlists, other
 * files or the network.
 */

/** The first video stream as ffprobe reports it, before any caller's rule about display size. */
export interface VideoStreamProbe {
  /** Seconds: the container's, else the stream's. */
  duration: number;
  /** Coded size. */
  width: number;
  height: number;
  /** Sample aspect ratio (1 when not given). */
  sampleAspect: number;
  /** Degrees the picture is turned by its display matrix or rotate tag (0 when none). */
  rotation: number;
  /** Frames per second (average, else nominal; 0 when unknown). */
  fps: number;
  codec: string | null;
}

const outputSchema = z.object({
  streams: z
    .array(
      z.object({
        codec_type: z.string().optional(),
        codec_name: z.string().optional(),
        width: z.number().optional(),
        height: z.number().optional(),
        sample_aspect_ratio: z.string().optional(),
        avg_frame_rate: z.string().optional(),
        r_frame_rate: z.string().optional(),
        duration: z.string().optional(),
        side_data_list: z.array(z.object({ rotation: z.number().optional() }).passthrough()).optional(),
        tags: z.object({ rotate: z.string().optional() }).passthrough().optional(),
      }),
    )
    .default([]),
  format: z.object({ duration: z.string().optional() }).default({}),
});

const TIMEOUT_MS = 60_000;

const ratio = (text: string | undefined, separator: string) => {
  const [n, d] = (text ?? "").split(separator).map(Number);
  return n > 0 && d > 0 ? n / d : 0;
};

/**
 * The first video stream of `input` (a local path, or an http(s) URL: a signed link to our own object store, http
 * where S3_ENDPOINT is), or null when ffprobe cannot read one with a size and a positive duration (or fails, or
 * times out).
 */
export async function probeVideoStream({ bin, input, container }: { bin: string; input: string; container?: string }): Promise<VideoStreamProbe | null> {
  const remote = /^https?:\/\//.test(input);
  const args = [
    ...["-v", "error", "-protocol_whitelist", remote ? "http,https,tls,tcp" : "file"],
    ...(container ? ["-f", container] : []),
    ...["-select_streams", "v:0", "-of", "json"],
    "-show_entries",
    "stream=codec_type,codec_name,width,height,sample_aspect_ratio,avg_frame_rate,r_frame_rate,duration:stream_side_data=rotation:stream_tags=rotate:format=duration",
    remote ? input : `file:${input}`,
  ];
  let parsed: z.infer<typeof outputSchema>;
  try {
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(bin, args, { timeout: TIMEOUT_MS, maxBuffer: 1024 * 1024, killSignal: "SIGKILL" }, (error, out) => (error ? reject(error) : resolve(out))),
    );
    parsed = outputSchema.parse(JSON.parse(stdout));
  } catch {
    return null;
  }
  const stream = parsed.streams.find((s) => s.codec_type === undefined || s.codec_type === "video");
  if (!stream?.width || !stream.height) return null;
  const duration = Number(parsed.format.duration ?? stream.duration);
  if (!Number.isFinite(duration) || duration <= 0) return null;
  return {
    duration,
    width: stream.width,
    height: stream.height,
    sampleAspect: ratio(stream.sample_aspect_ratio, ":") || 1,
    rotation: Math.round(stream.side_data_list?.find((s) => s.rotation !== undefined)?.rotation ?? Number(stream.tags?.rotate ?? 0)) || 0,
    fps: ratio(stream.avg_frame_rate, "/") || ratio(stream.r_frame_rate, "/"),
    codec: stream.codec_name ?? null,
  };
}
