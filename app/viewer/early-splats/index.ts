/**
 * The early splats (issue 20, docs/decisions/038-early-splats.md): a splat's coarse level drawn on the page before
 * the viewer exists. Pages that name a coarse level (`link[data-model-coarse]`, viewer-preload-links.ts) load this
 * module with an async `<script type="module">` in their HTML, so it runs as soon as it arrives, before the
 * entry scripts, React, three.js, Spark and Spark's WASM. It reads the coarse level's download (the same one
 * the viewer adopts later: startEarlyModelDownload), decodes the SOG bundle with the browser's own WebP decoder,
 * frames it as the viewer will (openingCamera, the same framing box) and draws one still frame in plain WebGL2
 * on ModelViewer's `canvas[data-early-splats]`. ModelViewer removes that canvas once the viewer has drawn its
 * own first frame. Any failure leaves the page as it was: the viewer shows the model as before.
 */
import { openingCamera } from "../camera-fit";
import type { CameraView } from "../camera-view";
import { startEarlyModelDownload } from "../download";
import { xorKeyFromString } from "../../lib/xor";
import { listZipEntries, zipEntryData } from "../../formats/zip";
import { EARLY_SPLATS_DRAWN, EARLY_SPLATS_MARK, EARLY_SPLATS_RELEASE } from "./events";
import { markLoad } from "../load-marks";
import { parseSogMeta } from "../../formats/sog";
import { decodeSogSplats, type RgbaImage } from "./sog-splats";
import { drawSplats, imageBytes } from "./splat-draw";

/** The device pixel ratio the viewer renders at, at most (the default maxPixelRatio: viewer-core.ts). */
const MAX_PIXEL_RATIO = 2;

async function entryBytes(zip: Uint8Array<ArrayBuffer>, name: string): Promise<Uint8Array<ArrayBuffer>> {
  const entry = listZipEntries(zip).find((e) => e.name === name);
  if (!entry) throw new Error(`the bundle lacks ${name}`);
  const data = zipEntryData(zip, entry) as Uint8Array<ArrayBuffer>; // a view of `zip`
  if (entry.method === 0) return data;
  const inflated = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
}

/** The canvas ModelViewer rendered, once the parser has reached it (this module may run before). */
function earlyCanvas(): Promise<HTMLCanvasElement | null> {
  const find = () => document.querySelector<HTMLCanvasElement>("canvas[data-early-splats]");
  if (find() || document.readyState !== "loading") return Promise.resolve(find());
  return new Promise((resolve) => document.addEventListener("readystatechange", () => resolve(find()), { once: true }));
}

function savedView(canvas: HTMLCanvasElement): CameraView | null {
  try {
    const view = JSON.parse(canvas.dataset.camera ?? "null") as CameraView | null;
    const isVec3 = (v: unknown) => Array.isArray(v) && v.length === 3 && v.every((n) => typeof n === "number" && Number.isFinite(n));
    return view && isVec3(view.position) && isVec3(view.target) ? view : null;
  } catch {
    return null;
  }
}

async function showEarlySplats(link: HTMLLinkElement): Promise<void> {
  const download = startEarlyModelDownload(link.href, xorKeyFromString(link.dataset.xorKey ?? ""));
  markLoad("early-splats-start");
  const [bytes, canvas] = await Promise.all([download.done, earlyCanvas()]);
  if (!canvas?.isConnected) return;
  markLoad("early-splats-received");
  const zip = new Uint8Array(bytes);
  const meta = parseSogMeta(JSON.parse(new TextDecoder().decode(await entryBytes(zip, "meta.json"))));
  const names = [...meta.means.files, ...meta.scales.files, ...meta.quats.files, ...meta.sh0.files];
  const bitmaps = await Promise.all(
    names.map(async (name) =>
      createImageBitmap(new Blob([await entryBytes(zip, name)], { type: "image/webp" }), { premultiplyAlpha: "none", colorSpaceConversion: "none" }),
    ),
  );
  if (!canvas.isConnected) return; // the viewer was faster
  markLoad("early-splats-images");
  const ratio = Math.min(window.devicePixelRatio || 1, MAX_PIXEL_RATIO);
  canvas.width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  canvas.height = Math.max(1, Math.round(canvas.clientHeight * ratio));
  const gl = canvas.getContext("webgl2", { antialias: false, depth: false, premultipliedAlpha: true });
  if (!gl) return;
  canvas.addEventListener(EARLY_SPLATS_RELEASE, () => gl.getExtension("WEBGL_lose_context")?.loseContext(), { once: true });
  const images = new Map<string, RgbaImage>(names.map((name, i) => [name, imageBytes(gl, bitmaps[i]!)]));
  bitmaps.forEach((bitmap) => bitmap.close());
  const splats = decodeSogSplats(meta, (name) => images.get(name)!);
  if (!splats.bounds) return;
  markLoad("early-splats-decoded");
  const camera = openingCamera({ bounds: splats.bounds, kind: "splat", aspect: canvas.width / canvas.height, saved: savedView(canvas) });
  drawSplats(gl, splats, camera);
  performance.mark(EARLY_SPLATS_MARK, { detail: { splats: splats.count } });
  canvas.dataset.drawn = "true";
  canvas.dispatchEvent(new Event(EARLY_SPLATS_DRAWN));
}

/** Starts the early splats where the page names a coarse level; never throws (the viewer is the fallback). */
export function startEarlySplats(): void {
  if (typeof document === "undefined" || typeof createImageBitmap !== "function") return;
  const link = document.querySelector<HTMLLinkElement>("link[data-model-coarse][data-splat]");
  if (!link) return;
  showEarlySplats(link).catch(() => undefined);
}

// Runs once per page, whether the HTML's script tag or startViewerEarly() loaded it first (one module instance).
startEarlySplats();
