/**
 * Automatic thumbnails (issue 18 item 2, docs/decisions/028-automatic-thumbnails.md): when an uploaded
 * model becomes ready, or a scan is published, the thumbnail job renders the model itself on the CPU
 * (app/thumbnails/) as the viewer opens it and stores it as the item's thumbnail — unless the owner has
 * chosen one ("use this view", or an uploaded image). Which thumbnail is automatic is told by its key's
 * name: `auto-…` (rendered here) and `scan-…` (a scan's capture photo, the fallback when rendering fails);
 * an owner's upload gets a bare UUID (storage/keys.ts thumbnailKey). A model that cannot be rendered keeps
 * what it had (the type tile, or the scan's photo), with a logged reason; the item never fails for it.
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { db } from "~/db.server";
import { logger } from "~/lib/logger.server";
import type { ModelFormat } from "~/formats/model-format";
import { thumbnailSource } from "./rendered-source";
import { storage } from "~/storage/index.server";
import { itemPrefix } from "~/storage/keys";
import type { ViewerBackground } from "~/viewer/background";
import type { CameraView } from "~/viewer/camera-view";
import { renderer, type RenderOutcome } from "~/thumbnails/renderer-process.server";
import type { RenderJob } from "~/thumbnails/render-jobs.server";
import { migrateViewerSettings } from "./viewer-settings";

const AUTOMATIC_PREFIXES = ["auto-", "scan-"];

/** Whether an item's thumbnail was made for it (rendered, or a scan's photo) rather than chosen by its owner. */
export function isAutomaticThumbnailKey(key: string): boolean {
  const name = key.split("/").pop() ?? "";
  return AUTOMATIC_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** The rendered thumbnail's key, named by the model file it shows (running a job twice writes the same object). */
export function renderedThumbnailKey(itemId: string, sourceKey: string): string {
  return `${itemPrefix(itemId)}thumbnail/auto-${createHash("sha256").update(sourceKey).digest("hex").slice(0, 16)}`;
}

export { thumbnailSource } from "./rendered-source";

export type ItemThumbnailOutcome = { status: "created"; key: string } | { status: "skipped"; reason: string } | { status: "failed"; reason: string };

/**
 * Renders and stores the thumbnail of `sourceKey` for an item, unless the item shows another file by now
 * or its owner has chosen a thumbnail. Throws only for infrastructure failures (storage, database).
 */
export async function createItemThumbnail({ itemId, sourceKey }: { itemId: string; sourceKey: string }): Promise<ItemThumbnailOutcome> {
  const item = await db().item.findUnique({
    where: { id: itemId },
    select: { status: true, modelType: true, fileKey: true, fileFormat: true, meshKey: true, thumbnailKey: true, settings: true, settingsVersion: true },
  });
  if (!item || item.status !== "ready") return { status: "skipped", reason: "the item is not ready" };
  const source = thumbnailSource(item);
  if (!source || source.key !== sourceKey) return { status: "skipped", reason: "the item's model file has changed" };
  if (item.thumbnailKey && !isAutomaticThumbnailKey(item.thumbnailKey)) return { status: "skipped", reason: "the owner chose the thumbnail" };
  const key = renderedThumbnailKey(itemId, sourceKey);
  if (item.thumbnailKey === key) return { status: "skipped", reason: "the thumbnail exists" };

  const store = storage();
  const settings = migrateViewerSettings(item.settings, item.settingsVersion);
  const workDir = await mkdtemp(path.join(os.tmpdir(), "scanroom-thumbnail-"));
  let image: Buffer;
  try {
    const input = path.join(workDir, `model.${source.format}`);
    await pipeline(await store.createReadStream(sourceKey), createWriteStream(input));
    const rendered = await renderInChildProcess(input, source.format, path.join(workDir, "thumbnail.webp"), { camera: settings.camera, background: settings.background });
    if ("failed" in rendered) {
      logger.warn("no thumbnail rendered for this model", { itemId, format: source.format, reason: rendered.failed });
      return { status: "failed", reason: rendered.failed };
    }
    image = rendered.image;
    logger.info("thumbnail rendered", { itemId, format: source.format, ...rendered.timings });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  await store.write(key, image, { contentType: "image/webp" });
  // Compare-and-set on the thumbnail: an owner's choice in the meantime wins.
  const { count } = await db().item.updateMany({ where: { id: itemId, thumbnailKey: item.thumbnailKey }, data: { thumbnailKey: key } });
  if (count === 0) {
    await store.delete(key);
    return { status: "skipped", reason: "the thumbnail changed meanwhile" };
  }
  if (item.thumbnailKey) await store.delete(item.thumbnailKey).catch(() => undefined);
  return { status: "created", key };
}

/** Longest a render may take (decode included); a 1M-splat .ply takes seconds on one core. */
const RENDER_TIMEOUT_MS = 120_000;

/** Renders the thumbnail in this process's renderer process (app/thumbnails/renderer-process.server.ts), so the render never blocks this process. */
async function renderInChildProcess(
  input: string,
  format: ModelFormat,
  output: string,
  view: { camera: CameraView | null; background: ViewerBackground | null },
): Promise<{ image: Buffer; timings: Record<string, unknown> } | { failed: string }> {
  const run = await runRenderer({ job: { job: "thumbnail", input, format, output, view }, what: "the thumbnail renderer", timeoutMs: RENDER_TIMEOUT_MS });
  if ("failed" in run) return run;
  return { image: await readFile(output), timings: run.timings };
}

/**
 * Runs a thumbnail or turntable job in the renderer process; a crash, a timeout or a model it cannot draw is
 * `{ failed }` with the reason, named by `what`.
 */
export async function runRenderer({ job, what, timeoutMs }: { job: RenderJob; what: string; timeoutMs: number }): Promise<RenderOutcome> {
  const outcome = await renderer().render(job, timeoutMs);
  return "failed" in outcome ? { failed: `${what} ${outcome.failed.startsWith("timed out") ? "" : "failed: "}${outcome.failed}` } : outcome;
}
