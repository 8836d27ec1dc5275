/**
 * Turntables (issue 35 item 2, docs/decisions/051-turntables.md): on its owner's request, a model is rendered on the
 * CPU going once around (app/thumbnails/render-jobs.server.ts: the thumbnails' renderers, from the opening view, on the
 * owner's background), made into an MP4 and a looping GIF by ffmpeg, with the first frame as a JPEG poster (the link
 * preview's picture). Anyone who can see the model can watch and download them. A turntable belongs to the model
 * file it was made from: when the model changes, it is made again on request.
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { db } from "~/db.server";
import { AppError, notFound } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { storage } from "~/storage/index.server";
import { itemPrefix } from "~/storage/keys";
import { getOwnedItem, getVisibleItem } from "./item-access.server";
import { serveStoredObject } from "~/storage/serve-object.server";
import { runRenderer, thumbnailSource } from "./item-thumbnails.server";
import { presentTurntable, TURNTABLE_FILES, type TurntableFile, type TurntableState } from "./turntable-presenter";
import { migrateViewerSettings } from "./viewer-settings";


/** Longest a turntable may take: 48 frames of a large splat on one core, and ffmpeg. */
const TURNTABLE_TIMEOUT_MS = 10 * 60_000;

/**
 * The folder of the turntable made from `sourceKey` with these view options (running a job twice writes the same
 * objects; a new opening view or background is a new folder, so no browser keeps showing the old video).
 */
function turntableFolder(itemId: string, sourceKey: string, view: object): string {
  return `${itemPrefix(itemId)}turntable/${createHash("sha256").update(sourceKey).update(JSON.stringify(view)).digest("hex").slice(0, 16)}/`;
}

/** The owner asks for a turntable of the model as it is now; it is rendered by the turntable job. */
export async function requestTurntable({ itemId, ownerId, enqueue }: { itemId: string; ownerId: string; enqueue: (job: { itemId: string; sourceKey: string }) => Promise<void> }) {
  const item = await getOwnedItem({ itemId, ownerId });
  const source = item.status === "ready" ? thumbnailSource(item) : null;
  if (!source) throw new AppError("conflict", "A turntable can be made once the model is ready.");
  if (item.turntableSourceKey === source.key && item.turntableState === "rendering") throw new AppError("conflict", "The turntable is being made.");
  await db().item.updateMany({ where: { id: itemId, ownerId }, data: { turntableState: "rendering", turntableSourceKey: source.key, turntableError: null } });
  await enqueue({ itemId, sourceKey: source.key });
  return presentTurntable({ ...item, turntableState: "rendering", turntableSourceKey: source.key }, true);
}

/**
 * Renders and stores the turntable of `sourceKey` for an item, unless it shows another file by now. A model that
 * cannot be rendered, or a server without ffmpeg, leaves the state `failed` with the reason for its owner.
 */
export async function createItemTurntable({ itemId, sourceKey }: { itemId: string; sourceKey: string }): Promise<void> {
  const item = await db().item.findUnique({ where: { id: itemId } });
  const source = item ? thumbnailSource(item) : null;
  if (!item || !source || source.key !== sourceKey || item.turntableSourceKey !== sourceKey) return;
  const settings = migrateViewerSettings(item.settings, item.settingsVersion);
  const store = storage();
  const workDir = await mkdtemp(path.join(os.tmpdir(), "scanroom-turntable-"));
  const finish = (data: { turntableState: TurntableState; turntableError?: string | null; turntableKey?: string }) =>
    db().item.updateMany({ where: { id: itemId, turntableSourceKey: sourceKey }, data: { turntableError: null, ...data } });
  try {
    const input = path.join(workDir, `model.${source.format}`);
    await pipeline(await store.createReadStream(sourceKey), createWriteStream(input));
    const view = { camera: settings.camera, background: settings.background };
    const run = await runRenderer({
      job: { job: "turntable", input, format: source.format, output: workDir, view },
      what: "the turntable renderer",
      timeoutMs: TURNTABLE_TIMEOUT_MS,
    });
    if ("failed" in run) {
      logger.warn("no turntable for this model", { itemId, reason: run.failed });
      await finish({ turntableState: "failed", turntableError: run.failed });
      return;
    }
    const folder = turntableFolder(itemId, sourceKey, view);
    for (const file of Object.values(TURNTABLE_FILES)) {
      await store.write(`${folder}${file.name}`, await readFile(path.join(workDir, file.name)), { contentType: file.type });
    }
    const { count } = await finish({ turntableState: "ready", turntableKey: folder });
    logger.info("turntable made", { itemId, stored: count === 1, ...run.timings });
    if (item.turntableKey && item.turntableKey !== folder) await store.deletePrefix(item.turntableKey).catch(() => undefined);
  } catch (error) {
    // Storage or database trouble: the owner is not left watching "Making…" for ever (the queue retries once).
    await finish({ turntableState: "failed", turntableError: "the turntable could not be stored; try again" }).catch(() => undefined);
    throw error;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * A turntable file of a model the viewer may see (as every read: visibleTo), as a response — cached for a day when
 * the request names the current turntable (`?v=`, as the API's URLs do), saved under the model's name on request.
 */
export async function serveTurntableFile(input: { itemId: string; file: TurntableFile; viewerId: string | null; request: Request; download: boolean }): Promise<Response> {
  const item = await getVisibleItem({ itemId: input.itemId, viewerId: input.viewerId });
  const folder = item.turntableState === "ready" ? item.turntableKey : null;
  const { name, type } = TURNTABLE_FILES[input.file];
  const current = folder !== null && new URL(input.request.url).searchParams.get("v") === folder.split("/").at(-2);
  const served = folder
    ? await serveStoredObject({
        store: storage(),
        key: `${folder}${name}`,
        request: input.request,
        headers: {
          "Content-Type": type,
          "Cache-Control": current ? "private, max-age=86400" : "private, no-cache",
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy": "default-src 'none'",
        },
        downloadName: input.download ? `${item.name} ${input.file === "poster" ? "poster.jpg" : name}` : null,
      })
    : null;
  if (!served) throw notFound("Turntable");
  return served;
}
