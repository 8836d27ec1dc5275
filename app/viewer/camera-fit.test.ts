import { describe, expect, it } from "vitest";
import { fitCamera, fitDistance, MAX_WIDENED_FOV, openingCamera, viewDirectionFor, viewForAspect } from "./camera-fit";

describe("fitDistance", () => {
  it("fits a sphere in the vertical field of view of a wide viewport", () => {
    // 90° vertical FOV: the sphere touches the frustum when sin(45°) * d = r.
    expect(fitDistance(1, 90, 2, 1)).toBeCloseTo(Math.SQRT2);
  });
  it("uses the horizontal field of view of a tall viewport", () => {
    expect(fitDistance(1, 90, 0.5, 1)).toBeGreaterThan(fitDistance(1, 90, 1, 1));
  });
});

describe("fitCamera", () => {
  it("places the camera along the direction, outside the model", () => {
    const fit = fitCamera([1, 2, 3], 2, 45, 1.5, [0, 0, 1]);
    expect(fit.target).toEqual([1, 2, 3]);
    expect(fit.position[0]).toBeCloseTo(1);
    expect(fit.position[1]).toBeCloseTo(2);
    const distance = fit.position[2] - 3;
    expect(distance).toBeGreaterThan(2);
    expect(fit.near).toBeGreaterThan(0);
    expect(fit.near).toBeLessThan(fit.minDistance);
    expect(fit.far).toBeGreaterThan(fit.maxDistance + 2);
    expect(fit.maxDistance).toBeGreaterThan(distance);
  });
  it("survives a degenerate radius", () => {
    const fit = fitCamera([0, 0, 0], 0, 45, 1);
    expect(Number.isFinite(fit.position[2])).toBe(true);
    expect(fit.near).toBeGreaterThan(0);
  });
});

describe("viewDirectionFor", () => {
  it("looks at meshes from the front (+Z) and at splats from three quarters", () => {
    expect(viewDirectionFor("mesh")).toEqual([0, 0.3, 1]);
    expect(viewDirectionFor("splat")).toEqual([1, 0.3, 1]);
  });
  it("returns a fresh array each time", () => {
    const a = viewDirectionFor("mesh");
    a[0] = 42;
    expect(viewDirectionFor("mesh")[0]).toBe(0);
  });
});

describe("viewForAspect (issue 35 item 6: a phone held upright sees what the saved view showed side to side)", () => {
  const DEG = Math.PI / 180;
  /** Half the width seen at the target's distance: what a view shows from side to side. */
  const halfWidthAtTarget = (view: { position: number[]; target: number[]; fov?: number }, aspect: number) =>
    Math.hypot(...view.position.map((v, i) => v - view.target[i])) * Math.tan(((view.fov ?? 45) * DEG) / 2) * aspect;
  const landscape = { position: [0, 1, 10] as [number, number, number], target: [0, 1, 0] as [number, number, number], fov: 40, aspect: 1.5 };

  it("leaves a view alone on a frame as wide or wider, and a view whose frame is unknown", () => {
    expect(viewForAspect(landscape, 1.5)).toBe(landscape);
    expect(viewForAspect(landscape, 2.4)).toBe(landscape);
    const unknown = { position: landscape.position, target: landscape.target, fov: 40 };
    expect(viewForAspect(unknown, 0.46)).toBe(unknown);
  });

  it("keeps the width seen on a portrait phone, widening the field of view to 70° and stepping back for the rest", () => {
    const wanted = halfWidthAtTarget(landscape, 1.5);
    for (const aspect of [1.2, 0.75, 0.46]) {
      const view = viewForAspect(landscape, aspect);
      const kept = halfWidthAtTarget(view, aspect);
      process.stdout.write(`aspect ${aspect}: fov ${view.fov!.toFixed(2)}°, distance ${Math.hypot(...view.position.map((v, i) => v - view.target[i])).toFixed(3)}, half-width ${kept.toFixed(4)} (wanted ${wanted.toFixed(4)})\n`);
      expect(Math.abs(kept - wanted) / wanted).toBeLessThan(1e-9);
      expect(view.fov!).toBeLessThanOrEqual(MAX_WIDENED_FOV + 1e-9);
      expect(view.fov!).toBeGreaterThanOrEqual(40);
      expect(view.target).toEqual(landscape.target);
      // Still looking the same way: the camera only moves along the line of sight.
      const dir = view.position.map((v, i) => v - view.target[i]);
      expect(dir[0]).toBe(0);
      expect(dir[1]).toBeCloseTo(0, 12);
    }
    // 1.2 needs only a little more field of view; 0.46 needs 70° and a step back.
    expect(viewForAspect(landscape, 1.2).position).toEqual(landscape.position);
    expect(viewForAspect(landscape, 0.46).fov).toBeCloseTo(MAX_WIDENED_FOV, 9);
    expect(viewForAspect(landscape, 0.46).position[2]).toBeGreaterThan(10);
  });

  it("is what the opening camera of server thumbnails and early splats uses", () => {
    const bounds = { min: [-3, 0, -1] as [number, number, number], max: [3, 2, 1] as [number, number, number] };
    const portrait = openingCamera({ bounds, kind: "splat", aspect: 0.46, saved: landscape });
    expect(portrait.fov).toBeCloseTo(MAX_WIDENED_FOV, 9);
    // The view saw 5.46 units each side; the subject (radius √44 / 2 = 3.32, with the 1.15 margin: 3.81) is what is kept.
    expect(halfWidthAtTarget(portrait, 0.46)).toBeCloseTo((Math.sqrt(44) / 2) * 1.15, 9);
  });
});

describe("viewForAspect with the subject's size", () => {
  const DEG = Math.PI / 180;
  const seenAtTarget = (view: { position: number[]; target: number[]; fov?: number }, aspect: number) =>
    Math.hypot(...view.position.map((v, i) => v - view.target[i])) * Math.tan(((view.fov ?? 45) * DEG) / 2) * aspect;

  it("keeps no more than the subject's width: a desktop view's empty margins do not shrink it on a phone", () => {
    // A wide desktop view (aspect 2) of a subject of radius 1 with room around it: 2.5 units seen each side.
    const desktop = { position: [0, 0, 3] as [number, number, number], target: [0, 0, 0] as [number, number, number], fov: 45, aspect: 2 };
    const phone = viewForAspect(desktop, 0.46, 45, 1);
    const kept = seenAtTarget(phone, 0.46);
    process.stdout.write(`desktop seen ${seenAtTarget(desktop, 2).toFixed(3)}, phone keeps ${kept.toFixed(4)} (subject 1 × margin 1.15)\n`);
    expect(kept).toBeCloseTo(1.15, 9);
    // Without the subject's size it keeps the whole desktop width (the subject would be a third as wide).
    expect(seenAtTarget(viewForAspect(desktop, 0.46), 0.46)).toBeCloseTo(seenAtTarget(desktop, 2), 9);
  });

  it("keeps a close-up's width when it is narrower than the subject, and leaves a view that still shows it all", () => {
    const closeUp = { position: [0, 0, 2] as [number, number, number], target: [0, 0, 0] as [number, number, number], fov: 45, aspect: 1.5 };
    expect(seenAtTarget(viewForAspect(closeUp, 0.5, 45, 10), 0.5)).toBeCloseTo(seenAtTarget(closeUp, 1.5), 9);
    const roomy = { position: [0, 0, 20] as [number, number, number], target: [0, 0, 0] as [number, number, number], fov: 45, aspect: 1.5 };
    expect(viewForAspect(roomy, 0.9, 45, 1)).toBe(roomy); // at 0.9 it still shows 7.5 units each side of a radius-1 subject
  });
});
