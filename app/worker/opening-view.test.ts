import { describe, expect, it } from "vitest";
import { cameraCenter } from "./colmap-model";
import { largestGapAroundSubject, openingView } from "./opening-view";

type Vec3 = [number, number, number];

/** A COLMAP pose (world → camera) for a camera at `centre` looking at `target`, image y pointing down (world +y). */
function lookAt(centre: Vec3, target: Vec3, name: string) {
  const z = normalise(sub(target, centre));
  const x = normalise(cross([0, 1, 0], z));
  const y = cross(z, x);
  const r = [...x, ...y, ...z];
  const q = quaternion(r);
  const t: Vec3 = [-(r[0] * centre[0] + r[1] * centre[1] + r[2] * centre[2]), -(r[3] * centre[0] + r[4] * centre[1] + r[5] * centre[2]), -(r[6] * centre[0] + r[7] * centre[1] + r[8] * centre[2])];
  return { q, t, name, cameraId: 1 };
}
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const normalise = (a: Vec3): Vec3 => {
  const n = Math.hypot(...a);
  return [a[0] / n, a[1] / n, a[2] / n];
};
function quaternion(r: number[]): [number, number, number, number] {
  const w = Math.sqrt(Math.max(0, 1 + r[0] + r[4] + r[8])) / 2;
  return [w, (r[7] - r[5]) / (4 * w), (r[2] - r[6]) / (4 * w), (r[3] - r[1]) / (4 * w)];
}

const camera = { id: 1, model: "PINHOLE", width: 1000, height: 750, params: [800, 800, 500, 375] };

describe("openingView", () => {
  it("opens a full orbit from its first frame, looking at the subject, in the viewer's flipped frame", () => {
    const subject: Vec3 = [0.1, -0.5, 0.2];
    const images = Array.from({ length: 12 }, (_, i) => {
      const a = (i / 12) * 2 * Math.PI;
      return lookAt([subject[0] + 2 * Math.cos(a), subject[1] - 1, subject[2] + 2 * Math.sin(a)], subject, `frame-${String(i + 1).padStart(4, "0")}.jpg`);
    });
    // Given out of order: the first frame is chosen by name, not by position in the list.
    const view = openingView({ images: [...images.slice(5), ...images.slice(0, 5)], cameras: [camera], subject })!;
    expect(view.frame).toBe("frame-0001.jpg");
    const centre = cameraCenter(images[0]);
    expect(view.position[0]).toBeCloseTo(centre[0], 4);
    expect(view.position[1]).toBeCloseTo(-centre[1], 4);
    expect(view.position[2]).toBeCloseTo(-centre[2], 4);
    // The target is the subject itself here (the camera looks straight at it).
    expect(view.target[0]).toBeCloseTo(subject[0], 4);
    expect(view.target[1]).toBeCloseTo(-subject[1], 4);
    expect(view.target[2]).toBeCloseTo(-subject[2], 4);
    // Vertical field of view of a 750 px tall image with fy = 800: 2·atan(375/800) = 50.2°.
    expect(view.fov).toBeCloseTo((2 * Math.atan(375 / 800) * 180) / Math.PI, 1);
    // The capture photo's shape travels with it, so a portrait phone widens the view to what the photo showed.
    expect(view.aspect).toBeCloseTo(1000 / 750, 3);
  });

  it("opens a one-sided capture from its most central camera", () => {
    const subject: Vec3 = [0, 0, 0];
    const angles = [-0.6, -0.3, 0.05, 0.35, 0.7];
    const images = angles.map((a, i) => lookAt([3 * Math.sin(a), -0.5, -3 * Math.cos(a)], subject, `image-00${i + 1}.jpg`));
    const view = openingView({ images, cameras: [camera], subject })!;
    expect(view.frame).toBe("image-003.jpg");
  });

  it("measures the largest gap between cameras around the subject", () => {
    const ring = Array.from({ length: 8 }, (_, i): Vec3 => [Math.cos((i * Math.PI) / 4), 0, Math.sin((i * Math.PI) / 4)]);
    expect(largestGapAroundSubject(ring, [0, 0, 0])).toBeCloseTo(Math.PI / 4, 6);
    expect(largestGapAroundSubject(ring.slice(0, 3), [0, 0, 0])).toBeCloseTo((3 * Math.PI) / 2, 6);
  });

  it("has no view without cameras", () => {
    expect(openingView({ images: [], cameras: [camera], subject: [0, 0, 0] })).toBeNull();
  });
});
