import { describe, expect, it } from "vitest";
import type { Bounds } from "~/viewer/bounds";
import { openingCamera } from "~/viewer/camera-fit";
import { rasterCamera } from "./camera";
import { linearToSrgb, parseHexColor, SRGB8_TO_LINEAR, type Rgb } from "./color";
import type { MeshMaterial, MeshPrimitive, MeshScene } from "./mesh-scene";
import { renderMesh } from "./render-mesh";
import { SH_C0, shBasis, shRestCount } from "~/formats/gaussian";
import { renderSplats, sortByDepth, SPLAT_BLUR } from "./render-splats";
import { thumbnailBackdrop } from "./render-thumbnail.server";
import type { SplatCloud } from "./splat-cloud";

const BLACK: Rgb = [0, 0, 0];
const FOV = 45;
const tanHalf = Math.tan((FOV * Math.PI) / 360);

function psnr(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] - b[i]) ** 2;
  return 10 * Math.log10(1 / (sum / a.length));
}

function material(overrides: Partial<MeshMaterial> = {}): MeshMaterial {
  return { color: [1, 1, 1, 1], texture: null, unlit: true, doubleSided: false, alphaMode: "OPAQUE", alphaCutoff: 0.5, ...overrides };
}

function scene(primitives: MeshPrimitive[]): MeshScene {
  return { primitives, bounds: { min: [-1, -1, -1], max: [1, 1, 1] }, triangles: primitives.reduce((s, p) => s + p.indices.length / 3, 0) };
}

/** A rectangle in the plane z, corners (±w/2, ±h/2), wound counter-clockwise seen from +Z. */
function quad(w: number, h: number, z: number, mat: MeshMaterial): MeshPrimitive {
  return {
    positions: Float32Array.from([-w / 2, -h / 2, z, w / 2, -h / 2, z, w / 2, h / 2, z, -w / 2, h / 2, z]),
    normals: null,
    uvs: Float32Array.from([0, 1, 1, 1, 1, 0, 0, 0]),
    colors: null,
    indices: Uint32Array.from([0, 1, 2, 0, 2, 3]),
    mirrored: false,
    material: mat,
  };
}

const headOn = (distance: number) => ({ position: [0, 0, distance] as [number, number, number], target: [0, 0, 0] as [number, number, number], fov: FOV, near: 0.01, far: 100 });

describe("mesh renderer", () => {
  it("reproduces a texture on a quad seen head-on, filling the view", () => {
    const width = 128;
    const height = 96;
    const bytes = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const o = (y * width + x) * 4;
        bytes[o] = Math.round(40 + 200 * (x / (width - 1)));
        bytes[o + 1] = Math.round(40 + 200 * (y / (height - 1)));
        bytes[o + 2] = ((x >> 4) + (y >> 4)) % 2 ? 200 : 30; // 16-texel checks
        bytes[o + 3] = 255;
      }
    }
    const texels = Float32Array.from(bytes, (v, i) => (i % 4 === 3 ? v / 255 : SRGB8_TO_LINEAR[v]));
    const distance = 1;
    const h = 2 * distance * tanHalf;
    const w = h * (width / height);
    const texture = { width, height, texels, wrapS: "clamp" as const, wrapT: "clamp" as const };
    const image = renderMesh(scene([quad(w, h, 0, material({ texture }))]), rasterCamera(headOn(distance), width, height), BLACK);
    // Expected: each texel as stored (an unlit material is not tone mapped, as in the viewer), in sRGB.
    const expected = new Float32Array(width * height * 3);
    for (let i = 0; i < width * height; i++) {
      for (let c = 0; c < 3; c++) expected[i * 3 + c] = linearToSrgb(texels[i * 4 + c]);
    }
    const measured = psnr(image.rgb, expected);
    console.warn(`[thumbnails] textured quad head-on: PSNR ${measured.toFixed(1)} dB vs the texture (bound ≥ 40 dB)`);
    expect(measured).toBeGreaterThanOrEqual(40);
  });

  it("draws the nearer of two overlapping triangles whatever their order, and culls back faces", () => {
    const red = quad(0.4, 0.4, 0, material({ color: [1, 0, 0, 1] }));
    const blue = quad(0.8, 0.8, -0.5, material({ color: [0, 0, 1, 1] }));
    const camera = rasterCamera(headOn(2), 64, 48);
    const centre = (24 * 64 + 32) * 3;
    for (const order of [[red, blue], [blue, red]]) {
      const image = renderMesh(scene(order), camera, BLACK);
      // Pure red and blue come out slightly desaturated (the viewer's Neutral tone mapping).
      expect(image.rgb[centre] - image.rgb[centre + 2]).toBeGreaterThan(0.6);
      const edge = (24 * 64 + 32 + 7) * 3; // outside the red square, inside the blue one
      expect(image.rgb[edge + 2] - image.rgb[edge]).toBeGreaterThan(0.6);
    }
    const behind = rasterCamera({ ...headOn(-2), position: [0, 0, -2] }, 64, 48);
    expect(Math.max(...renderMesh(scene([red]), behind, BLACK).rgb)).toBe(0);
    expect(renderMesh(scene([{ ...red, material: material({ color: [1, 0, 0, 1], doubleSided: true }) }]), behind, BLACK).rgb[centre]).toBeGreaterThan(0.9);
  });

  it("clips a triangle crossing the near plane instead of dropping or smearing it", () => {
    // A floor from behind the camera to far in front of it.
    const floor: MeshPrimitive = {
      positions: Float32Array.from([-5, -1, 5, 5, -1, 5, 5, -1, -20, -5, -1, -20]),
      normals: null,
      uvs: null,
      colors: null,
      indices: Uint32Array.from([0, 1, 2, 0, 2, 3]),
      mirrored: false,
      material: material({ color: [0, 1, 0, 1] }),
    };
    const image = renderMesh(scene([floor]), rasterCamera(headOn(0), 64, 48), BLACK);
    const bottom = (47 * 64 + 32) * 3;
    const top = (0 * 64 + 32) * 3;
    expect(image.rgb[bottom + 1]).toBeGreaterThan(0.9); // the floor at the camera's feet
    expect(image.rgb[top + 1]).toBe(0); // the sky above the horizon
  });
});

function oneSplat(scale: [number, number, number], rotation: [number, number, number, number], opacity: number): SplatCloud {
  const bounds: Bounds = { min: [-1, -1, -1], max: [1, 1, 1] };
  return {
    count: 1,
    positions: Float32Array.from([0, 0, 0]),
    scales: Float32Array.from(scale),
    rotations: Float32Array.from(rotation),
    colors: Float32Array.from([1, 1, 1]),
    opacities: Float32Array.from([opacity]),
    bounds,
  };
}

describe("splat renderer", () => {
  it.each([
    { name: "isotropic", scale: [0.05, 0.05, 0.05] as [number, number, number], angle: 0 },
    { name: "anisotropic, turned 30° about the view axis", scale: [0.08, 0.03, 0.03] as [number, number, number], angle: Math.PI / 6 },
  ])("draws a single $name gaussian as the analytic projected gaussian", ({ scale, angle }) => {
    const width = 160;
    const height = 120;
    const distance = 2;
    const opacity = 0.8;
    const camera = rasterCamera(headOn(distance), width, height);
    const rotation: [number, number, number, number] = [Math.cos(angle / 2), 0, 0, Math.sin(angle / 2)]; // w, x, y, z
    const image = renderSplats(oneSplat(scale, rotation, opacity), camera, BLACK);
    // Head-on at the image centre the projection is exact: Σ2D = (f/d)² R diag(sx², sy²) Rᵀ (y flipped on screen) + blur.
    const k = camera.fy / distance;
    const [sx, sy] = [scale[0] * k, scale[1] * k];
    const c = Math.cos(-angle);
    const s = Math.sin(-angle);
    const a = c * c * sx * sx + s * s * sy * sy + SPLAT_BLUR;
    const b = c * s * (sx * sx - sy * sy);
    const d = s * s * sx * sx + c * c * sy * sy + SPLAT_BLUR;
    const det = a * d - b * b;
    let worst = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const dx = x + 0.5 - width / 2;
        const dy = y + 0.5 - height / 2;
        const expected = opacity * Math.exp(-0.5 * (d * dx * dx - 2 * b * dx * dy + a * dy * dy) / det);
        worst = Math.max(worst, Math.abs(image.rgb[(y * width + x) * 3] - expected));
      }
    }
    console.warn(`[thumbnails] single gaussian (${angle ? "anisotropic" : "isotropic"}): largest pixel error ${worst.toFixed(4)} (bound ≤ 0.012: the 1/255 alpha cut and the 3σ footprint)`);
    expect(worst).toBeLessThanOrEqual(0.012);
  });

  it("blends front to back: a nearer opaque splat hides a farther one", () => {
    const cloud: SplatCloud = {
      ...oneSplat([0.1, 0.1, 0.1], [1, 0, 0, 0], 0.99),
      count: 2,
      positions: Float32Array.from([0, 0, -1, 0, 0, 0.5]),
      scales: Float32Array.from([0.1, 0.1, 0.1, 0.1, 0.1, 0.1]),
      rotations: Float32Array.from([1, 0, 0, 0, 1, 0, 0, 0]),
      colors: Float32Array.from([0, 0, 1, 1, 0, 0]),
      opacities: Float32Array.from([0.99, 0.99]),
    };
    const image = renderSplats(cloud, rasterCamera(headOn(2), 64, 48), BLACK);
    const centre = (24 * 64 + 32) * 3;
    expect(image.rgb[centre]).toBeGreaterThan(0.95);
    // At most 1 % of the light passes an opaque splat (alpha is capped at 0.99, as in 3DGS).
    expect(image.rgb[centre + 2]).toBeLessThan(0.03);
  });

  it("colours a splat by its spherical harmonics as seen from each camera, the direction taken in the file's frame", () => {
    const C1 = 0.4886025119029199;
    // Degree 1, red only: coefficient 0 goes with −C1·y, 1 with C1·z, 2 with −C1·x (3DGS), of the direction from the
    // eye to the splat in the file's frame, which is the world's turned half a turn about X: (x, −y, −z).
    const cloud: SplatCloud = {
      ...oneSplat([0.6, 0.6, 0.6], [1, 0, 0, 0], 1),
      colors: Float32Array.from([0.5, 0.5, 0.5]),
      harmonics: { degree: 1, coefficients: Float32Array.from([0.2, 0, 0, 0.3, 0, 0, 0.4, 0, 0]) },
    };
    const seen = (position: [number, number, number]) => {
      const image = renderSplats(cloud, rasterCamera({ position, target: [0, 0, 0], fov: FOV, near: 0.01, far: 100 }, 64, 48), BLACK);
      // Opaque at its centre: alpha is capped at 0.99 over a black background.
      return [0, 1, 2].map((c) => image.rgb[(24 * 64 + 32) * 3 + c] / 0.99);
    };
    const cases: Array<{ eye: [number, number, number]; red: number }> = [
      { eye: [0, 0, 2], red: 0.5 + C1 * 0.3 }, // world direction (0, 0, −1): file (0, 0, 1)
      { eye: [2, 0, 0], red: 0.5 + C1 * 0.4 }, // world (−1, 0, 0): file (−1, 0, 0)
      { eye: [0, 2, 2], red: 0.5 + (C1 * (0.3 - 0.2)) / Math.SQRT2 }, // world (0, −1, −1)/√2: file (0, 1, 1)/√2
    ];
    for (const { eye, red } of cases) {
      const [r, g, b] = seen(eye);
      expect(r).toBeCloseTo(red, 3);
      expect(g).toBeCloseTo(0.5, 3);
      expect(b).toBeCloseTo(0.5, 3);
    }
    // Clamped to 0..1 before blending, as WebGL clamps a fragment's colour.
    cloud.harmonics!.coefficients[3] = 5;
    expect(seen([0, 0, 2])[0]).toBeCloseTo(1, 3);
    cloud.harmonics!.coefficients[3] = -5;
    expect(seen([0, 0, 2])[0]).toBeCloseTo(0, 3);
  });

  it("uses the orthonormal real SH basis up to degree 3 (its Gram matrix over the sphere is the identity)", () => {
    const n = shRestCount(3);
    const gram = Array.from({ length: n + 1 }, () => new Float64Array(n + 1));
    const samples = 200_000;
    const basis = new Float32Array(n);
    for (let i = 0; i < samples; i++) {
      // A Fibonacci sphere: nearly even directions, each standing for 4π / samples of solid angle.
      const z = 1 - (2 * (i + 0.5)) / samples;
      const r = Math.sqrt(1 - z * z);
      const phi = i * Math.PI * (3 - Math.sqrt(5));
      shBasis(r * Math.cos(phi), r * Math.sin(phi), z, 3, basis);
      const all = [SH_C0, ...basis];
      for (let a = 0; a <= n; a++) for (let b = 0; b <= n; b++) gram[a][b] += (all[a] * all[b] * 4 * Math.PI) / samples;
    }
    let worst = 0;
    for (let a = 0; a <= n; a++) for (let b = 0; b <= n; b++) worst = Math.max(worst, Math.abs(gram[a][b] - (a === b ? 1 : 0)));
    console.warn(`[thumbnails] SH basis, degrees 0–3: largest deviation of its Gram matrix from the identity ${worst.toExponential(2)} (bound 1e-3)`);
    expect(worst).toBeLessThan(1e-3);
  });

  it("sorts depths nearest first", () => {
    const depth = Float32Array.from([3.5, 0.25, 100, 1e-3, 3.25, 7]);
    expect(Array.from(sortByDepth(depth))).toEqual([3, 1, 4, 0, 5, 2]);
  });
});

describe("background behind the model", () => {
  it("draws a gradient from the top row's colour to the bottom row's, behind meshes and splats alike", () => {
    const [top, bottom]: Rgb[] = [
      [0.2, 0.4, 0.6],
      [0.9, 0.8, 0.1],
    ];
    const camera = rasterCamera(headOn(2), 64, 48);
    const mesh = renderMesh(scene([quad(0.4, 0.4, 0, material({ color: [1, 0, 0, 1] }))]), camera, { stops: [top, bottom] });
    const splats = renderSplats(oneSplat([0.05, 0.05, 0.05], [1, 0, 0, 0], 0.8), camera, { stops: [top, bottom] });
    for (const image of [mesh, splats]) {
      const pixel = (x: number, y: number) => [0, 1, 2].map((c) => image.rgb[(y * 64 + x) * 3 + c]);
      pixel(0, 0).forEach((v, c) => expect(v).toBeCloseTo(top[c], 6));
      pixel(63, 47).forEach((v, c) => expect(v).toBeCloseTo(bottom[c], 6));
      // Row 23 of 48 is 23/47 of the way down, in sRGB as CSS blends.
      pixel(0, 23).forEach((v, c) => expect(v).toBeCloseTo(top[c] + ((bottom[c] - top[c]) * 23) / 47, 6));
    }
    // The model still covers its middle.
    expect(mesh.rgb[(24 * 64 + 32) * 3]).toBeGreaterThan(0.9);
  });

  it("gives the CPU renderers the viewer's colours: a colour, a gradient's two, an environment's flat stand-in", () => {
    expect(thumbnailBackdrop(null)).toEqual(parseHexColor("#1e1f22"));
    expect(thumbnailBackdrop("#ff0000")).toEqual([1, 0, 0]);
    expect(thumbnailBackdrop({ type: "gradient", top: "#000000", bottom: "#ffffff" })).toEqual({ stops: [BLACK, [1, 1, 1]] });
    const sky = thumbnailBackdrop({ type: "environment", name: "outdoor" }) as { stops: Rgb[] };
    expect(sky.stops).toHaveLength(3);
    expect(sky.stops[0][2]).toBeGreaterThan(sky.stops[0][0]); // blue above
    expect(sky.stops[2][2]).toBeLessThan(sky.stops[2][1]); // green-brown ground below
  });
});

describe("framing", () => {
  it.each(["mesh", "splat"] as const)("puts a %s model's bounds inside the image", (kind) => {
    const bounds: Bounds = { min: [2, -1, 5], max: [6, 3, 6] };
    const pose = openingCamera({ bounds, kind, aspect: 4 / 3 });
    const camera = rasterCamera(pose, 640, 480);
    const m = camera.viewProjection;
    for (let corner = 0; corner < 8; corner++) {
      const p = [0, 1, 2].map((axis) => ((corner >> axis) & 1 ? bounds.max[axis] : bounds.min[axis]));
      const w = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
      const x = (m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12]) / w;
      const y = (m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13]) / w;
      expect(w).toBeGreaterThan(0);
      expect(Math.abs(x)).toBeLessThan(1);
      expect(Math.abs(y)).toBeLessThan(1);
    }
  });

  it("opens from a saved view, its distance kept inside the zoom limits", () => {
    const bounds: Bounds = { min: [-1, -1, -1], max: [1, 1, 1] };
    const saved = { position: [0, 0, 4] as [number, number, number], target: [0, 0, 0] as [number, number, number], fov: 30 };
    expect(openingCamera({ bounds, kind: "mesh", aspect: 1, saved })).toMatchObject({ position: [0, 0, 4], target: [0, 0, 0], fov: 30 });
    const far = openingCamera({ bounds, kind: "mesh", aspect: 1, saved: { ...saved, position: [0, 0, 1e6] } });
    expect(far.position[2]).toBeLessThan(1e3);
    expect(far.position[2]).toBeGreaterThan(4);
  });
});
