import { describe, expect, it } from "vitest";
import { degreesFromQuaternion, quaternionFromDegrees } from "./rotation";

describe("Builder rotation fields", () => {
  it("turns 90° about Y into the quaternion three.js uses", () => {
    const q = quaternionFromDegrees([0, 90, 0]);
    expect(q[0]).toBeCloseTo(0);
    expect(q[1]).toBeCloseTo(Math.SQRT1_2);
    expect(q[2]).toBeCloseTo(0);
    expect(q[3]).toBeCloseTo(Math.SQRT1_2);
  });

  it("gives back the angles it was given (XYZ order)", () => {
    for (const angles of [
      [10, 20, 30],
      [-45, 60, 170],
      [0, 0, 0],
      [90, 0, -90],
    ] as Array<[number, number, number]>) {
      const back = degreesFromQuaternion(quaternionFromDegrees(angles));
      back.forEach((value, axis) => expect(value).toBeCloseTo(angles[axis], 3));
    }
  });

  it("reads an unnormalised quaternion as its rotation", () => {
    expect(degreesFromQuaternion([0, 0, 2, 2])).toEqual([0, 0, 90]);
  });
});
