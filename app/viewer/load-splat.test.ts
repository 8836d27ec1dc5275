import { Group, Object3D } from "three";
import { describe, expect, it } from "vitest";
import { splatsDrawnOf, type SparkHandle } from "./load-splat";

/** The fields of Spark's renderer that splatsDrawnOf reads: its last sort's splats and what they came from. */
function sparkShowing(nodes: Object3D[], activeSplats: number): SparkHandle {
  return Object.assign(new Object3D(), { dispose() {}, dirty: false, sorting: false, sortDirty: false, activeSplats, display: { mapping: nodes.map((node) => ({ node })) } });
}

describe("splatsDrawnOf", () => {
  const coarse = new Object3D();
  const whole = new Object3D();

  it("counts the last sort's splats only for the object they came from", () => {
    // Just after the coarse level was swapped for the whole model, Spark still draws the coarse level's sort.
    expect(splatsDrawnOf(sparkShowing([coarse], 9_086), whole)).toBe(0);
    expect(splatsDrawnOf(sparkShowing([coarse], 9_086), coarse)).toBe(9_086);
    expect(splatsDrawnOf(sparkShowing([whole], 90_854), whole)).toBe(90_854);
    expect(splatsDrawnOf(sparkShowing([], 0), whole)).toBe(0);
  });

  it("finds the splats of a scene's parts inside the scene's group", () => {
    const scene = new Group();
    const part = new Object3D();
    scene.add(part);
    expect(splatsDrawnOf(sparkShowing([part], 1_000), scene)).toBe(1_000);
    expect(splatsDrawnOf(sparkShowing([part], 1_000), new Group())).toBe(0);
  });
});
