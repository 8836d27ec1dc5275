import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Real scan inputs for tests, made once and cached under tests/.tmp/media/v<RECIPE>. Frames come
 * from ffmpeg's lavfi test sources (fast, no rendering); the encoder is H.264 in MP4, which both
 * Chromium and ffprobe read. Bump RECIPE when a recipe changes.
 */
const RECIPE = 1;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../.tmp/media");
const dir = path.join(root, `v${RECIPE}`);

export interface TestMedia {
  /** 1920×1080, 2 s, ~12 MB of noise so a resumable upload needs two 8 MiB parts. */
  landscape: string;
  /** 1080×1920, 1 s. */
  portrait: string;
  /** 1440×1080 (4:3), 1 s. */
  fourThree: string;
  /** 320×180 (16:9), 200 s at 1 frame per second. */
  long: string;
  /** 1920×1080, 1 s, a few KB: for many uploads at once. */
  tiny: string;
  /** image-001.jpg … image-301.jpg, 320×240, each different. */
  images: string[];
}

function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile("ffmpeg", ["-v", "error", "-y", ...args], { timeout: 120_000 }, (error) => (error ? reject(error) : resolve()));
  });
}

const h264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "+faststart"];

function describe(base: string): TestMedia {
  return {
    landscape: path.join(base, "landscape-1920x1080.mp4"),
    portrait: path.join(base, "portrait-1080x1920.mp4"),
    fourThree: path.join(base, "four-three-1440x1080.mp4"),
    long: path.join(base, "long-200s.mp4"),
    tiny: path.join(base, "tiny-1920x1080.mp4"),
    images: Array.from({ length: 301 }, (_, i) => path.join(base, "images", `image-${String(i + 1).padStart(3, "0")}.jpg`)),
  };
}

async function generate(base: string) {
  mkdirSync(path.join(base, "images"), { recursive: true });
  const media = describe(base);
  const source = (size: string, rate: number) => ["-f", "lavfi", "-i", `testsrc2=size=${size}:rate=${rate}`];
  await Promise.all([
    ffmpeg([...source("1920x1080", 30), "-t", "2", "-vf", "noise=alls=20:allf=t", ...h264, "-b:v", "48M", "-maxrate", "48M", "-bufsize", "16M", media.landscape]),
    ffmpeg([...source("1080x1920", 10), "-t", "1", ...h264, media.portrait]),
    ffmpeg([...source("1440x1080", 10), "-t", "1", ...h264, media.fourThree]),
    ffmpeg([...source("320x180", 1), "-t", "200", ...h264, media.long]),
    ffmpeg([...source("1920x1080", 5), "-t", "1", ...h264, "-crf", "40", media.tiny]),
    ffmpeg([...source("320x240", 1), "-frames:v", "301", "-q:v", "6", path.join(base, "images", "image-%03d.jpg")]),
  ]);
}

let pending: Promise<TestMedia> | undefined;

/** The test media, generated on first use in this checkout (a few seconds) and reused after. */
export function ensureTestMedia(): Promise<TestMedia> {
  pending ??= (async () => {
    const media = describe(dir);
    if (existsSync(path.join(dir, "images")) && readdirSync(path.join(dir, "images")).length === 301) return media;
    // Made in a private folder and moved into place at once, so parallel test files never read half a set.
    const temp = `${dir}.tmp-${process.pid}-${Date.now()}`;
    await generate(temp);
    try {
      renameSync(temp, dir);
    } catch {
      rmSync(temp, { recursive: true, force: true }); // another process finished first
    }
    return media;
  })();
  return pending;
}
