import { execFile } from "node:child_process";
import { z } from "zod";
import type { VideoContainer } from "~/lib/media-format";

/**
 * Reads a stored video's real duration and display size with ffprobe (Debian's ffmpeg). It runs with
 * an argument array (never a shell string), with the demuxer forced to the container the magic bytes
 * named, and only the `file` protocol (or https for a signed URL), so a crafted file cannot make it
 * read playlists, other files or the network.
 */
export interface VideoProbe {
  duration: number;
  /** Display size: coded size × sample aspect ratio (rotation does not change the aspect rule). */
  width: number;
  height: number;
  codec: string | null;
}

const probeOutputSchema = z.object({
  streams: z
    .array(
      z.object({
        codec_type: z.string().optional(),
        codec_name: z.string().optional(),
        width: z.number().optional(),
        height: z.number().optional(),
        sample_aspect_ratio: z.string().optional(),
        duration: z.string().optional(),
      }),
    )
    .default([]),
  format: z.object({ duration: z.string().optional() }).default({}),
});

const PROBE_TIMEOUT_MS = 30_000;

function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("ffprobe", args, { timeout: PROBE_TIMEOUT_MS, maxBuffer: 1024 * 1024, killSignal: "SIGKILL" }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

/** Null when ffprobe finds no decodable video stream with a size and a duration. */
export async function probeVideo({ input, container }: { input: string; container: VideoContainer }): Promise<VideoProbe | null> {
  const remote = /^https:\/\//.test(input);
  let stdout: string;
  try {
    stdout = await run([
      "-v",
      "error",
      "-protocol_whitelist",
      remote ? "https,tls,tcp" : "file",
      "-f",
      container,
      "-select_streams",
      "v:0",
      "-show_entries",
      "stream=codec_type,codec_name,width,height,sample_aspect_ratio,duration:format=duration",
      "-of",
      "json",
      remote ? input : `file:${input}`,
    ]);
  } catch {
    return null;
  }
  let parsed: z.infer<typeof probeOutputSchema>;
  try {
    parsed = probeOutputSchema.parse(JSON.parse(stdout));
  } catch {
    return null;
  }
  const stream = parsed.streams.find((s) => s.codec_type === "video");
  if (!stream?.width || !stream.height) return null;
  const duration = Number(parsed.format.duration ?? stream.duration);
  if (!Number.isFinite(duration) || duration <= 0) return null;
  const sar = /^(\d+):(\d+)$/.exec(stream.sample_aspect_ratio ?? "");
  const sarValue = sar && Number(sar[1]) > 0 && Number(sar[2]) > 0 ? Number(sar[1]) / Number(sar[2]) : 1;
  return { duration, width: Math.round(stream.width * sarValue), height: stream.height, codec: stream.codec_name ?? null };
}
