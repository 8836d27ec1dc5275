import { readFileSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { startAssetServer } from "./scan-media";

/**
 * Looks at a scan's textured mesh as a browser would (issue 14's checks): three.js in headless Chromium
 * loads the GLB with the same loaders as the viewer (meshopt and Draco decoders), gives its triangles
 * in world space, and renders it unlit from a given camera; it also gives cat.glb's triangles placed
 * exactly as tests/setup/scan-media.ts renders them, and decodes photos the same way.
 */
const PAGE = `<!doctype html><html><body style="margin:0">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/","@sparkjsdev/spark":"/spark/spark.module.js"}}</script>
<script type="module">
import * as THREE from "three";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
import { DRACOLoader } from "three/addons/loaders/DRACOLoader.js";
import { MeshoptDecoder } from "three/addons/libs/meshopt_decoder.module.js";
const loader = new GLTFLoader();
const draco = new DRACOLoader();
draco.setDecoderPath("/three/examples/jsm/libs/draco/");
loader.setDRACOLoader(draco);
loader.setMeshoptDecoder(MeshoptDecoder);
function trianglesOf(root) {
  root.updateMatrixWorld(true);
  const out = [];
  const v = new THREE.Vector3();
  root.traverse((o) => {
    if (!o.isMesh) return;
    const g = o.geometry, pos = g.attributes.position, index = g.index;
    const count = index ? index.count : pos.count;
    for (let i = 0; i < count; i++) {
      v.fromBufferAttribute(pos, index ? index.getX(i) : i).applyMatrix4(o.matrixWorld);
      out.push(v.x, v.y, v.z);
    }
  });
  return out;
}
window.catTriangles = async () => {
  const model = (await loader.loadAsync("/cat.glb")).scene;
  const box = new THREE.Box3().setFromObject(model);
  const size = box.getSize(new THREE.Vector3());
  model.scale.setScalar(1 / size.y);
  const scaled = new THREE.Box3().setFromObject(model);
  const center = scaled.getCenter(new THREE.Vector3());
  model.position.set(-center.x, -scaled.min.y, -center.z);
  return trianglesOf(model);
};
window.meshTriangles = async (url) => trianglesOf((await loader.loadAsync(url)).scene);
window.renderMesh = async (url, view) => {
  const gltf = await loader.loadAsync(url);
  const scene = new THREE.Scene();
  gltf.scene.traverse((o) => {
    if (o.isMesh) o.material = new THREE.MeshBasicMaterial({ map: o.material.map ?? null, vertexColors: !!o.geometry.attributes.color, color: o.material.map || o.geometry.attributes.color ? 0xffffff : o.material.color, side: THREE.DoubleSide });
  });
  scene.add(gltf.scene);
  const renderer = new THREE.WebGLRenderer({ antialias: false, alpha: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(view.width, view.height);
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  renderer.setClearColor(0x000000, 0);
  renderer.render(scene, viewCamera(view));
  return pixelsOf(renderer, view);
};
function viewCamera(view) {
  const camera = new THREE.PerspectiveCamera(view.fovDeg, view.width / view.height, 0.01, 100);
  const m = view.rotation;
  camera.matrixAutoUpdate = false;
  camera.matrix.set(m[0], m[1], m[2], view.position[0], m[3], m[4], m[5], view.position[1], m[6], m[7], m[8], view.position[2], 0, 0, 0, 1);
  camera.matrixWorld.copy(camera.matrix);
  camera.matrixWorldInverse.copy(camera.matrix).invert();
  return camera;
}
function pixelsOf(renderer, view) {
  const canvas = document.createElement("canvas");
  canvas.width = view.width; canvas.height = view.height;
  const g = canvas.getContext("2d");
  g.drawImage(renderer.domElement, 0, 0);
  return Array.from(g.getImageData(0, 0, view.width, view.height).data);
}
// A 3DGS .ply through Spark, as the viewer shows it: turned upright by the half turn about x.
window.renderSplat = async (url, view) => {
  const spark = await import("@sparkjsdev/spark");
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const renderer = new THREE.WebGLRenderer({ antialias: false, alpha: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(view.width, view.height);
  renderer.setClearColor(0x000000, 0);
  const scene = new THREE.Scene();
  const sparkRenderer = new spark.SparkRenderer({ renderer });
  scene.add(sparkRenderer);
  const mesh = new spark.SplatMesh({ fileBytes: bytes, fileType: spark.SplatFileType.PLY });
  await mesh.initialized;
  mesh.quaternion.set(1, 0, 0, 0);
  scene.add(mesh);
  const camera = viewCamera(view);
  // Spark sorts in a worker: draw until a sort has finished for this camera.
  for (let i = 0; i < 40; i++) {
    renderer.render(scene, camera);
    await new Promise((r) => setTimeout(r, 100));
    if (i >= 5 && !sparkRenderer.sorting && !sparkRenderer.sortDirty) break;
  }
  renderer.render(scene, camera);
  return pixelsOf(renderer, view);
};
window.photoPixels = async (url) => {
  const image = new Image();
  image.src = url;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.width; canvas.height = image.height;
  const g = canvas.getContext("2d");
  g.drawImage(image, 0, 0);
  return { width: image.width, height: image.height, data: Array.from(g.getImageData(0, 0, image.width, image.height).data) };
};
window.ready = true;
</script></body></html>`;

export interface MeshCamera {
  /** Camera centre and camera-to-world rotation (row-major 3×3, three.js axes: x right, y up, z backwards) in the mesh's frame. */
  position: [number, number, number];
  rotation: number[];
  fovDeg: number;
  width: number;
  height: number;
}

export interface ScanInspector {
  catTriangles(): Promise<Float32Array>;
  meshTriangles(glb: Uint8Array): Promise<Float32Array>;
  renderMesh(glb: Uint8Array, camera: MeshCamera): Promise<Uint8Array>;
  /** A 3DGS .ply drawn by Spark (the viewer's splat renderer) from `camera`, RGBA with alpha where nothing was drawn. */
  renderSplat(ply: Uint8Array, camera: MeshCamera): Promise<Uint8Array>;
  photoPixels(file: string): Promise<{ width: number; height: number; data: Uint8Array }>;
  close(): Promise<void>;
}

export async function startScanInspector(): Promise<ScanInspector> {
  const extra = new Map<string, Uint8Array>();
  const assets = await startAssetServer({ page: PAGE, extra });
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"],
    });
    const page: Page = await browser.newPage();
    await page.goto(assets.url);
    await page.waitForFunction(() => (window as any).ready === true);
    let served = 0;
    const serve = (bytes: Uint8Array) => {
      const name = `/file-${++served}.bin`;
      extra.set(name, bytes);
      return name;
    };
    const opened = browser;
    return {
      catTriangles: async () => Float32Array.from(await page.evaluate(() => (window as any).catTriangles())),
      meshTriangles: async (glb) => Float32Array.from(await page.evaluate((url) => (window as any).meshTriangles(url), serve(glb))),
      renderMesh: async (glb, camera) => Uint8Array.from(await page.evaluate(([url, view]) => (window as any).renderMesh(url, view), [serve(glb), camera] as const)),
      renderSplat: async (ply, camera) => Uint8Array.from(await page.evaluate(([url, view]) => (window as any).renderSplat(url, view), [serve(ply), camera] as const)),
      photoPixels: async (file) => {
        const photo = await page.evaluate((url) => (window as any).photoPixels(url), serve(new Uint8Array(readFileSync(file))));
        return { width: photo.width, height: photo.height, data: Uint8Array.from(photo.data) };
      },
      close: async () => {
        await opened.close();
        await assets.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await assets.close();
    throw error;
  }
}
