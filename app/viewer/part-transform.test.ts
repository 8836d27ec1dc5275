import { Group, Matrix4, Quaternion, Vector3 } from "three";
import { describe, expect, it } from "vitest";
import { applyPartTransform, clampScale, getPartTransform, IDENTITY_TRANSFORM, MIN_PART_SCALE, normalizePartTransform, partMatrix } from "./part-transform";
import type { PartTransform } from "./types";

const quarterTurnY = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), Math.PI / 2);
const sample: PartTransform = {
  position: [1.5, -2, 0.25],
  quaternion: [quarterTurnY.x, quarterTurnY.y, quarterTurnY.z, quarterTurnY.w],
  scale: [2, 2, 2],
};

describe("getPartTransform / applyPartTransform", () => {
  it("round-trips a transform through a three.js group", () => {
    const group = new Group();
    applyPartTransform(group, sample);
    const read = getPartTransform(group);
    read.position.forEach((v, i) => expect(v).toBeCloseTo(sample.position[i], 12));
    read.quaternion.forEach((v, i) => expect(v).toBeCloseTo(sample.quaternion[i], 12));
    expect(read.scale).toEqual([2, 2, 2]);
    // The group's matrix is current: a point moves as the transform says (scale, turn, then shift).
    const moved = new Vector3(1, 0, 0).applyMatrix4(group.matrix);
    expect(moved.x).toBeCloseTo(1.5, 9);
    expect(moved.y).toBeCloseTo(-2, 9);
    expect(moved.z).toBeCloseTo(0.25 - 2, 9);
  });

  it("reads a fresh group as the identity", () => {
    expect(getPartTransform(new Group())).toEqual(IDENTITY_TRANSFORM);
  });
});

describe("partMatrix", () => {
  it("equals three's Matrix4.compose", () => {
    const expected = new Matrix4().compose(new Vector3(...sample.position), quarterTurnY, new Vector3(2, 3, 0.5));
    const actual = partMatrix({ ...sample, scale: [2, 3, 0.5] });
    actual.forEach((v, i) => expect(v).toBeCloseTo(expected.elements[i], 12));
  });
});

describe("normalizePartTransform", () => {
  it("keeps a valid transform", () => {
    const normalized = normalizePartTransform(sample);
    normalized.quaternion.forEach((v, i) => expect(v).toBeCloseTo(sample.quaternion[i], 12));
    expect(normalized.position).toEqual(sample.position);
  });

  it("makes the rotation a unit quaternion", () => {
    const { quaternion } = normalizePartTransform({ ...sample, quaternion: [0, 0, 0, 4] });
    expect(quaternion).toEqual([0, 0, 0, 1]);
  });

  it("clamps zero and negative scales to the minimum", () => {
    expect(normalizePartTransform({ ...sample, scale: [0, -3, 0.5] }).scale).toEqual([MIN_PART_SCALE, MIN_PART_SCALE, 0.5]);
  });

  it("rejects transforms that are not finite numbers", () => {
    expect(() => normalizePartTransform(null)).toThrow("transform is missing");
    expect(() => normalizePartTransform({ ...sample, position: [0, 0] })).toThrow("position must be 3 finite numbers");
    expect(() => normalizePartTransform({ ...sample, position: [0, NaN, 0] })).toThrow("position");
    expect(() => normalizePartTransform({ ...sample, scale: [1, Infinity, 1] })).toThrow("scale");
    expect(() => normalizePartTransform({ ...sample, quaternion: [0, 0, 0, 0] })).toThrow("must not be zero");
    expect(() => normalizePartTransform({ ...sample, quaternion: ["0", 0, 0, 1] })).toThrow("rotation");
  });
});

describe("clampScale", () => {
  it("keeps scales above zero", () => {
    expect(clampScale(-1)).toBe(MIN_PART_SCALE);
    expect(clampScale(0)).toBe(MIN_PART_SCALE);
    expect(clampScale(0.5)).toBe(0.5);
  });
});
