import { describe, expect, it } from "vitest";
import { renderMesh } from "~/thumbnails/render-mesh";
import { renderSplats } from "~/thumbnails/render-splats";
import type { MeshScene } from "~/thumbnails/mesh-scene";
import type { SplatCloud } from "~/thumbnails/splat-cloud";
import { rotationMatrix } from "../colmap-model";
import { captureRasterCamera, pinholeIntrinsics } from "./capture-camera";

/** A camera turned a little about every axis, off the origin, with its principal point off centre. */
const intrinsics = { width: 160, height: 120, fx: 150, fy: 140, cx: 71.3, cy: 66.8 };
const q = (() => {
  const [x, y, z] = [0.1, -0.2, 0.05];
  const w = Math.sqrt(1 - x * x - y * y - z * z);
  return [w, x, y, z] as [number, number, number, number];
})();
const pose = { q, t: [0.3, -0.2, 2.5] as [number, number, number] };

/** Where COLMAP's pinhole model puts a point of the scan's frame (x right, y down, z forward). */
function colmapPixel(p: [number, number, number]): [number, number] {
  const r = rotationMatrix(pose.q);
  const c = [0, 1, 2].map((i) => r[i * 3] * p[0] + r[i * 3 + 1] * p[1] + r[i * 3 + 2] * p[2] + pose.t[i]);
  return [intrinsics.fx * (c[0] / c[2]) + intrinsics.cx, intrinsics.fy * (c[1] / c[2]) + intrinsics.cy];
}

/** The same point in the viewer's frame (the half turn about X). */
const viewer = (p: [number, number, number]): [number, number, number] => [p[0], -p[1], -p[2]];

function brightest(rgb: Float32Array, width: number, height: number): [number, number] {
  let sx = 0, sy = 0, sum = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = rgb[(y * width + x) * 3];
      if (v < 0.05) continue;
      sx += v * (x + 0.5);
      sy += v * (y + 0.5);
      sum += v;
    }
  }
  return [sx / sum, sy / sum];
}

describe("a capture camera for the software renderers", () => {
  const camera = captureRasterCamera(intrinsics, pose, 0.01, 100);

  it("projects a point where COLMAP's pinhole model does, principal point included", () => {
    for (const p of [[0, 0, 0], [0.4, -0.3, 0.2], [-0.5, 0.25, -0.6]] as Array<[number, number, number]>) {
      const [u, v] = colmapPixel(p);
      const w = viewer(p);
      const m = camera.viewProjection;
      const clip = [0, 1, 3].map((i) => m[i] * w[0] + m[4 + i] * w[1] + m[8 + i] * w[2] + m[12 + i]);
      const px = (clip[0] / clip[2] * 0.5 + 0.5) * intrinsics.width;
      const py = (0.5 - (clip[1] / clip[2]) * 0.5) * intrinsics.height;
      expect(px).toBeCloseTo(u, 6);
      expect(py).toBeCloseTo(v, 6);
    }
  });

  it("draws a small splat at the pixel COLMAP projects its centre to (within 0.05 px)", () => {
    const p: [number, number, number] = [0.35, -0.25, 0.1];
    const cloud: SplatCloud = {
      count: 1,
      positions: Float32Array.from(viewer(p)),
      scales: new Float32Array([0.01, 0.01, 0.01]),
      rotations: new Float32Array([1, 0, 0, 0]),
      colors: new Float32Array([1, 1, 1]),
      opacities: new Float32Array([0.9]),
      bounds: { min: [0, 0, 0], max: [1, 1, 1] },
    };
    const image = renderSplats(cloud, camera, [0, 0, 0]);
    const [x, y] = brightest(image.rgb, image.width, image.height);
    const [u, v] = colmapPixel(p);
    console.warn(`[camera] splat centre drawn at (${x.toFixed(3)}, ${y.toFixed(3)}), COLMAP projects (${u.toFixed(3)}, ${v.toFixed(3)})`);
    expect(Math.hypot(x - u, y - v)).toBeLessThan(0.05);
    expect(image.alpha![Math.floor(v) * image.width + Math.floor(u)]).toBeGreaterThan(0.5);
  });

  it("draws a mesh triangle's corners where COLMAP projects them (within 1 px)", () => {
    const corners: Array<[number, number, number]> = [[-0.2, -0.2, 0], [0.3, -0.1, 0.05], [0, 0.3, -0.05]];
    const scene: MeshScene = {
      primitives: [
        {
          positions: Float32Array.from(corners.flatMap(viewer)),
          normals: null,
          uvs: null,
          colors: null,
          indices: new Uint32Array([0, 1, 2]),
          mirrored: false,
          material: { color: [1, 1, 1, 1], texture: null, unlit: true, doubleSided: true, alphaMode: "OPAQUE", alphaCutoff: 0.5 },
        },
      ],
      bounds: { min: [-1, -1, -1], max: [1, 1, 1] },
      triangles: 1,
    };
    const image = renderMesh(scene, camera, [0, 0, 0]);
    const covered = (x: number, y: number) => image.alpha![Math.floor(y) * image.width + Math.floor(x)] > 0;
    const projected = corners.map(colmapPixel);
    const centroid = [0, 1].map((k) => projected.reduce((s, p) => s + p[k], 0) / 3);
    expect(covered(centroid[0], centroid[1])).toBe(true);
    for (const [u, v] of projected) {
      // A point 1 px inside the corner (towards the centroid) is drawn; 1.5 px outside is not.
      const toward = [centroid[0] - u, centroid[1] - v];
      const length = Math.hypot(toward[0], toward[1]);
      expect(covered(u + toward[0] / length, v + toward[1] / length)).toBe(true);
      expect(covered(u - (1.5 * toward[0]) / length, v - (1.5 * toward[1]) / length)).toBe(false);
    }
  });

  it("takes pinhole cameras and distorting models without distortion, and refuses distorting ones", () => {
    expect(pinholeIntrinsics({ id: 1, model: "PINHOLE", width: 640, height: 480, params: [500, 510, 320, 240] })).toEqual({ width: 640, height: 480, fx: 500, fy: 510, cx: 320, cy: 240 });
    expect(pinholeIntrinsics({ id: 1, model: "SIMPLE_PINHOLE", width: 640, height: 480, params: [500, 321, 239] })).toMatchObject({ fx: 500, fy: 500, cx: 321, cy: 239 });
    expect(pinholeIntrinsics({ id: 1, model: "SIMPLE_RADIAL", width: 640, height: 480, params: [500, 321, 239, 0] })).toMatchObject({ fx: 500, fy: 500, cx: 321, cy: 239 });
    expect(() => pinholeIntrinsics({ id: 2, model: "SIMPLE_RADIAL", width: 640, height: 480, params: [500, 320, 240, -0.15] })).toThrow(/undistort/);
    expect(() => pinholeIntrinsics({ id: 3, model: "OPENCV", width: 640, height: 480, params: [500, 500, 320, 240, 0, 0, 0.001, 0] })).toThrow(/undistort/);
  });
});
