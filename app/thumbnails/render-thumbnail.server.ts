/**
 * A model's thumbnail, rendered on the CPU from the model itself (issue 18 item 2): decode (GLB through
 * glTF-Transform, splats through splat-transform), frame it as the viewer opens it (the saved opening
 * view, else the viewer's own fit: app/viewer/camera-fit.ts openingCamera), draw it with the software
 * renderers on the viewer's background, and encode a 640×480 WebP (the cards' 4:3).
 */
import sharp from "sharp";
import { isSplatFormat, type ModelFormat } from "~/formats/model-format";
import { openingCamera } from "~/viewer/camera-fit";
import type { CameraView } from "~/viewer/camera-view";
import { backgroundStops, type ViewerBackground } from "~/viewer/background";
import { rasterCamera } from "./camera";
import { parseHexColor, type Backdrop } from "./color";
import type { MeshScene } from "./mesh-scene";
import { readGlbScene } from "./read-glb.server";
import { readSplatCloud } from "./read-splats.server";
import { renderMesh } from "./render-mesh";
import { renderSplats } from "./render-splats";
import type { RenderedImage } from "./rendered-image";
import type { SplatCloud } from "./splat-cloud";

export const THUMBNAIL_WIDTH = 640;
export const THUMBNAIL_HEIGHT = 480;
/** Meshes are drawn at this many samples per pixel edge and averaged down (edges without jaggies). */
const MESH_SUPERSAMPLING = 2;
const WEBP_QUALITY = 85;

export type DecodedModel = { kind: "mesh"; scene: MeshScene } | { kind: "splat"; cloud: SplatCloud };

export async function decodeModel(bytes: Uint8Array, format: ModelFormat): Promise<DecodedModel> {
  if (isSplatFormat(format)) return { kind: "splat", cloud: await readSplatCloud(bytes, format) };
  return { kind: "mesh", scene: await readGlbScene(bytes) };
}

export interface ViewOptions {
  /** The item's saved opening view (item settings' camera); null frames the model as the viewer does. */
  camera?: CameraView | null;
  /** The item's background (a colour, a gradient or an environment); null is the viewer's default colour. */
  background?: ViewerBackground | null;
  width?: number;
  height?: number;
}

export function renderDecoded(model: DecodedModel, options: ViewOptions = {}): RenderedImage {
  const width = options.width ?? THUMBNAIL_WIDTH;
  const height = options.height ?? THUMBNAIL_HEIGHT;
  const background = thumbnailBackdrop(options.background);
  const bounds = model.kind === "mesh" ? model.scene.bounds : model.cloud.bounds;
  const pose = openingCamera({ bounds, kind: model.kind, aspect: width / height, saved: options.camera });
  if (model.kind === "splat") return renderSplats(model.cloud, rasterCamera(pose, width, height), background);
  const s = MESH_SUPERSAMPLING;
  return downsample(renderMesh(model.scene, rasterCamera(pose, width * s, height * s), background), s);
}

/**
 * The background as the CPU renderers draw it: a colour, or a gradient's two colours from the top row to the bottom
 * one; an environment (a sky the viewer draws around the model) is its flat stand-in from backgroundStops — what a
 * level camera sees away from its lights, top, horizon and bottom — not the turning sky nor its light (decision 053).
 */
export function thumbnailBackdrop(background: ViewerBackground | null | undefined): Backdrop {
  const stops = backgroundStops(background).map(parseHexColor);
  return stops.length === 1 ? stops[0] : { stops };
}

/** Averages each s×s block of pixels. */
export function downsample(image: RenderedImage, s: number): RenderedImage {
  if (s === 1) return image;
  const width = Math.floor(image.width / s);
  const height = Math.floor(image.height / s);
  const rgb = new Float32Array(width * height * 3);
  const alpha = image.alpha ? new Float32Array(width * height) : undefined;
  const weight = 1 / (s * s);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (let dy = 0; dy < s; dy++) for (let dx = 0; dx < s; dx++) sum += image.rgb[((y * s + dy) * image.width + x * s + dx) * 3 + c];
        rgb[(y * width + x) * 3 + c] = sum * weight;
      }
      if (alpha && image.alpha) {
        let sum = 0;
        for (let dy = 0; dy < s; dy++) for (let dx = 0; dx < s; dx++) sum += image.alpha[(y * s + dy) * image.width + x * s + dx];
        alpha[y * width + x] = sum * weight;
      }
    }
  }
  return { width, height, rgb, alpha };
}

/** 8-bit RGB pixels of a rendered image. */
export function toRgb8(image: RenderedImage): Uint8Array {
  const out = new Uint8Array(image.width * image.height * 3);
  for (let i = 0; i < out.length; i++) out[i] = Math.round(Math.min(1, Math.max(0, image.rgb[i])) * 255);
  return out;
}

export async function encodeImage(image: RenderedImage, format: "webp" | "png" = "webp"): Promise<Buffer> {
  const pipeline = sharp(toRgb8(image), { raw: { width: image.width, height: image.height, channels: 3 } });
  return format === "png" ? pipeline.png().toBuffer() : pipeline.webp({ quality: WEBP_QUALITY }).toBuffer();
}

export interface Thumbnail {
  /** WebP bytes. */
  image: Buffer;
  width: number;
  height: number;
  kind: DecodedModel["kind"];
  /** Milliseconds spent decoding, rendering and encoding. */
  ms: { decode: number; render: number; encode: number };
}

export async function renderModelThumbnail(bytes: Uint8Array, format: ModelFormat, options: ViewOptions = {}): Promise<Thumbnail> {
  const t0 = performance.now();
  const model = await decodeModel(bytes, format);
  const t1 = performance.now();
  const rendered = renderDecoded(model, options);
  const t2 = performance.now();
  const image = await encodeImage(rendered);
  const t3 = performance.now();
  const round = (ms: number) => Math.round(ms);
  return { image, width: rendered.width, height: rendered.height, kind: model.kind, ms: { decode: round(t1 - t0), render: round(t2 - t1), encode: round(t3 - t2) } };
}
