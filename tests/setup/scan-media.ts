import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { SHARED_DATA } from "./shared-data";

/**
 * Real scan inputs for tests and the bench (shared/data/SOURCES.md: no licensed photo set or video
 * exists, so we make them from a real model). cat.glb is rendered in headless Chromium with three.js
 * from known cameras orbiting it, on a floor with a random-rectangle texture (the matcher needs
 * texture beyond the object). Made once and cached under tests/.tmp/media/<recipe>/; a change of
 * recipe changes the folder name, so a stale cache is never used.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CAT_GLB = path.join(SHARED_DATA, "models/cat.glb");
const MEDIA_DIR = path.join(ROOT, "tests/.tmp/media");
const RECIPE_VERSION = 3;

export interface RenderCamera {
  file: string;
  /** Camera centre in the render's world frame (y up). */
  position: [number, number, number];
  target: [number, number, number];
  /** Vertical field of view in degrees. */
  fovDeg: number;
  width: number;
  height: number;
}

export interface RenderedSet {
  dir: string;
  files: string[];
  cameras: RenderCamera[];
}

export interface OrbitOptions {
  count: number;
  width: number;
  height: number;
  /** Elevation range in degrees (it rises and falls twice over the orbit). */
  elevation?: [number, number];
  fovDeg?: number;
  /** Distance from the model's centre, in model heights. */
  distance?: number;
  quality?: number;
}

function recipeKey(kind: string, options: object) {
  const parts = Object.entries(options)
    .map(([k, v]) => `${k}${Array.isArray(v) ? v.join("-") : v}`)
    .join("_");
  return `v${RECIPE_VERSION}-${kind}-${parts}`;
}

/** Makes a cached folder once: `make` fills a temporary folder that is renamed into place when done. */
async function cached<T>(key: string, make: (dir: string) => Promise<T>): Promise<{ dir: string; meta: T }> {
  const dir = path.join(MEDIA_DIR, key);
  const metaFile = path.join(dir, "meta.json");
  if (existsSync(metaFile)) return { dir, meta: JSON.parse(readFileSync(metaFile, "utf8")) as T };
  mkdirSync(MEDIA_DIR, { recursive: true });
  const temp = path.join(MEDIA_DIR, `.${key}-${randomBytes(4).toString("hex")}`);
  mkdirSync(temp, { recursive: true });
  try {
    const meta = await make(temp);
    writeFileSync(path.join(temp, "meta.json"), JSON.stringify(meta, null, 1));
    try {
      renameSync(temp, dir);
    } catch (error) {
      // Another test process made the same folder meanwhile: theirs is as good as ours.
      if (!existsSync(metaFile)) throw error;
      rmSync(temp, { recursive: true, force: true });
    }
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
  return { dir, meta: JSON.parse(readFileSync(metaFile, "utf8")) as T };
}

const PAGE = `<!doctype html><html><body style="margin:0">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
<script type="module">
import * as THREE from "three";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
window.setup = async ({ width, height, fovDeg }) => {
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(width, height);
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  document.body.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x9fb4c8);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x556070, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 2.2);
  sun.position.set(3, 6, 2);
  scene.add(sun);
  const gltf = await new GLTFLoader().loadAsync("/cat.glb");
  const model = gltf.scene;
  const box = new THREE.Box3().setFromObject(model);
  const size = box.getSize(new THREE.Vector3());
  const scale = 1 / size.y;
  model.scale.setScalar(scale);
  const scaled = new THREE.Box3().setFromObject(model);
  const center = scaled.getCenter(new THREE.Vector3());
  model.position.set(-center.x, -scaled.min.y, -center.z);
  scene.add(model);
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 2048;
  const g = canvas.getContext("2d");
  g.fillStyle = "#807860";
  g.fillRect(0, 0, 2048, 2048);
  for (let i = 0; i < 1500; i++) {
    g.fillStyle = "hsl(" + Math.floor(random() * 360) + "," + Math.floor(30 + random() * 60) + "%," + Math.floor(20 + random() * 60) + "%)";
    g.fillRect(random() * 2048, random() * 2048, 8 + random() * 90, 8 + random() * 90);
  }
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.anisotropy = 8;
  // In small triangles: SwiftShader draws a big triangle that crosses the near plane with its texture smeared
  // (two floor triangles made 2 of the 24 photos disagree with the rest where the floor's diagonal passed under the camera).
  const floor = new THREE.Mesh(new THREE.PlaneGeometry(6, 6, 32, 32), new THREE.MeshStandardMaterial({ map: texture, roughness: 0.9 }));
  floor.rotation.x = -Math.PI / 2;
  scene.add(floor);
  const camera = new THREE.PerspectiveCamera(fovDeg, width / height, 0.05, 50);
  window.renderView = (position, target, quality) => {
    camera.position.set(...position);
    camera.lookAt(new THREE.Vector3(...target));
    renderer.render(scene, camera);
    return renderer.domElement.toDataURL("image/jpeg", quality);
  };
  return { modelHeight: 1 };
};
</script></body></html>`;

const CONTENT_TYPES: Record<string, string> = { ".js": "text/javascript", ".glb": "model/gltf-binary", ".html": "text/html", ".wasm": "application/wasm" };

/**
 * Serves a page (the render page by default), three.js and cat.glb on a free local port, plus any
 * `extra` files held in memory (path → bytes).
 */
export async function startAssetServer(options: { page?: string; extra?: Map<string, Uint8Array> } = {}) {
  const threeDir = path.join(ROOT, "node_modules/three");
  const sparkDir = path.join(ROOT, "node_modules/@sparkjsdev/spark/dist");
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    let file: string | null = null;
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(options.page ?? PAGE);
      return;
    }
    const extra = options.extra?.get(url.pathname);
    if (extra) {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(extra);
      return;
    }
    if (url.pathname === "/cat.glb") file = CAT_GLB;
    else if (url.pathname.startsWith("/three/")) {
      const resolved = path.resolve(threeDir, `.${url.pathname.slice("/three".length)}`);
      if (resolved.startsWith(threeDir + path.sep)) file = resolved;
    } else if (url.pathname.startsWith("/spark/")) {
      const resolved = path.resolve(sparkDir, `.${url.pathname.slice("/spark".length)}`);
      if (resolved.startsWith(sparkDir + path.sep)) file = resolved;
    }
    if (!file || !existsSync(file)) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream" });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((r) => server.close(r)) };
}

export function orbitCameras(options: OrbitOptions): Array<Omit<RenderCamera, "file">> {
  const [low, high] = options.elevation ?? [10, 35];
  const fovDeg = options.fovDeg ?? 50;
  const distance = options.distance ?? 2.2;
  const target: [number, number, number] = [0, 0.45, 0];
  return Array.from({ length: options.count }, (_, i) => {
    const azimuth = (2 * Math.PI * i) / options.count;
    const elevation = ((low + (high - low) * (0.5 - 0.5 * Math.cos(4 * Math.PI * (i / options.count)))) * Math.PI) / 180;
    const position: [number, number, number] = [
      distance * Math.cos(elevation) * Math.sin(azimuth),
      target[1] + distance * Math.sin(elevation),
      distance * Math.cos(elevation) * Math.cos(azimuth),
    ];
    return { position, target, fovDeg, width: options.width, height: options.height };
  });
}

/** Renders cat.glb from each camera; files are named image-001.jpg, image-002.jpg, … (SPEC §4). */
async function renderOrbit(dir: string, options: OrbitOptions): Promise<RenderCamera[]> {
  const assets = await startAssetServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: options.width, height: options.height } });
    await page.goto(assets.url);
    await page.waitForFunction(() => typeof (window as any).setup === "function");
    await page.evaluate((o) => (window as any).setup(o), { width: options.width, height: options.height, fovDeg: options.fovDeg ?? 50 });
    const cameras: RenderCamera[] = [];
    for (const [index, camera] of orbitCameras(options).entries()) {
      const dataUrl: string = await page.evaluate(
        ([position, target, quality]) => (window as any).renderView(position, target, quality),
        [camera.position, camera.target, options.quality ?? 0.92] as const,
      );
      const file = `image-${String(index + 1).padStart(3, "0")}.jpg`;
      writeFileSync(path.join(dir, file), Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64"));
      cameras.push({ file, ...camera });
    }
    return cameras;
  } finally {
    await browser.close();
    await assets.close();
  }
}

/** The CI photo set: cat.glb from `count` known cameras (default 24 renders at 800×600). */
export async function renderedPhotoSet(options: Partial<OrbitOptions> = {}): Promise<RenderedSet> {
  const full: OrbitOptions = { count: 24, width: 800, height: 600, ...options };
  const { dir, meta } = await cached(recipeKey("orbit", full), async (temp) => {
    mkdirSync(path.join(temp, "images"));
    return { cameras: await renderOrbit(path.join(temp, "images"), full) };
  });
  const images = path.join(dir, "images");
  return { dir: images, files: meta.cameras.map((c) => path.join(images, c.file)), cameras: meta.cameras };
}

function runFfmpeg(args: string[]) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg failed (${code}): ${stderr}`))));
  });
}

export interface OrbitVideo {
  path: string;
  width: number;
  height: number;
  duration: number;
  fps: number;
  cameras: RenderCamera[];
}

/** A 16:9 orbit video of cat.glb: `count` renders encoded with ffmpeg (H.264) at `fps`. */
export async function orbitVideo(options: Partial<OrbitOptions> & { fps?: number } = {}): Promise<OrbitVideo> {
  const { fps = 12, ...rest } = options;
  const full: OrbitOptions = { count: 96, width: 960, height: 540, ...rest };
  const { dir, meta } = await cached(recipeKey("video", { ...full, fps }), async (temp) => {
    const frames = path.join(temp, "frames");
    mkdirSync(frames);
    const cameras = await renderOrbit(frames, full);
    await runFfmpeg(["-framerate", String(fps), "-i", path.join(frames, "image-%03d.jpg"), "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18", path.join(temp, "orbit.mp4")]);
    rmSync(frames, { recursive: true, force: true });
    return { width: full.width, height: full.height, duration: full.count / fps, fps, cameras };
  });
  return { path: path.join(dir, "orbit.mp4"), ...meta };
}

/**
 * `count` images of independent random noise: nothing in them matches across views, so a scan of
 * them must stop at the quality gate.
 */
export async function noisePhotoSet({ count = 20, width = 640, height = 480, blob = 16 } = {}): Promise<RenderedSet> {
  const { dir, meta } = await cached(recipeKey("noise", { count, width, height, blob }), async (root) => {
    const temp = path.join(root, "images");
    mkdirSync(temp);
    const files: string[] = [];
    for (let i = 1; i <= count; i++) {
      const file = `image-${String(i).padStart(3, "0")}.jpg`;
      // Smooth random colour blobs (a small noise image scaled up): features, none shared between
      // images, and few enough per image that matching them all stays quick on a CPU.
      const raw = path.join(temp, `noise-${i}.rgb`);
      writeFileSync(raw, randomBytes((width / blob) * (height / blob) * 3));
      await runFfmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${width / blob}x${height / blob}`, "-i", raw, "-vf", `scale=${width}:${height}:flags=bicubic`, "-frames:v", "1", "-q:v", "3", path.join(temp, file)]);
      rmSync(raw);
      files.push(file);
    }
    return { files };
  });
  const images = path.join(dir, "images");
  return { dir: images, files: meta.files.map((f) => path.join(images, f)), cameras: [] };
}

export interface PhonePhoto {
  /** The stored photo (image-NNN.jpg). */
  file: string;
  /** The upright render it shows once its EXIF Orientation is applied (before any upscaling). */
  render: string;
  /** EXIF Orientation: 1, 3 (half a turn), 6 or 8 (quarter turns, as phones store portrait shots). */
  orientation: number;
  /** Upscaled past the scan's working size (long side 1600 px), so the scan must scale it down. */
  large: boolean;
  /** Stored pixel size, and the size shown once the orientation is applied. */
  stored: { width: number; height: number };
  display: { width: number; height: number };
}

export interface PhonePhotoSet extends RenderedSet {
  photos: PhonePhoto[];
  /** The EXIF every photo carries; FocalLengthIn35mmFilm matches the renderer's field of view. */
  exif: { make: string; model: string; focalLength: number; focalLengthIn35mmFilm: number };
}

/**
 * Photos as a phone stores them (issue 38), made from the rendered orbit: EXIF Make, Model, FocalLength
 * and FocalLengthIn35mmFilm on every photo; every 2nd and 4th of each four stored turned a quarter with
 * Orientation 6 or 8, the 10th and 20th half a turn with Orientation 3 (shown upright once the orientation
 * is applied); the 3rd of every `largeEvery` upscaled ×3.2 past the scan's working size.
 */
export async function phonePhotoSet(options: { count?: number; width?: number; height?: number; largeEvery?: number } = {}): Promise<PhonePhotoSet> {
  const { count = 20, width = 640, height = 480, largeEvery = 5 } = options;
  const fovDeg = 50;
  const renders = await renderedPhotoSet({ count, width, height, fovDeg });
  const focalPixels = height / 2 / Math.tan((fovDeg * Math.PI) / 360);
  const exif = { make: "Scanroom", model: "Render Cam", focalLength: 4.2, focalLengthIn35mmFilm: Math.round((focalPixels * 35) / Math.max(width, height)) };
  const sharp = (await import("sharp")).default;
  const { dir, meta } = await cached(recipeKey("phone", { count, width, height, fovDeg, largeEvery }), async (root) => {
    mkdirSync(path.join(root, "images"));
    const made: Array<{ orientation: number; large: boolean }> = [];
    for (const [i, render] of renders.files.entries()) {
      const orientation = i % 10 === 9 ? 3 : [1, 6, 1, 8][i % 4];
      const large = i % largeEvery === 2;
      const upright = large ? await sharp(render).resize(Math.round(width * 3.2), Math.round(height * 3.2), { kernel: "lanczos3" }).png().toBuffer() : readFileSync(render);
      // Stored so that the orientation turns it back: 6 is shown turned 90° clockwise, 8 anticlockwise.
      const turn = { 1: 0, 3: 180, 6: 270, 8: 90 }[orientation]!;
      await sharp(upright)
        .rotate(turn)
        .jpeg({ quality: 95 })
        .withMetadata({ orientation })
        .withExif({
          IFD0: { Make: exif.make, Model: exif.model },
          IFD2: { FocalLength: String(exif.focalLength), FocalLengthIn35mmFilm: String(exif.focalLengthIn35mmFilm) },
        })
        .toFile(path.join(root, "images", path.basename(render)));
      made.push({ orientation, large });
    }
    return { photos: made };
  });
  const images = path.join(dir, "images");
  const photos = await Promise.all(
    renders.files.map(async (render, i): Promise<PhonePhoto> => {
      const file = path.join(images, path.basename(render));
      const metadata = await sharp(file).metadata();
      const { orientation, large } = meta.photos[i];
      const quarter = orientation >= 5;
      return {
        file,
        render,
        orientation,
        large,
        stored: { width: metadata.width, height: metadata.height },
        display: quarter ? { width: metadata.height, height: metadata.width } : { width: metadata.width, height: metadata.height },
      };
    }),
  );
  return { dir: images, files: photos.map((p) => p.file), cameras: renders.cameras, photos, exif };
}
