import { describe, expect, it } from "vitest";
import { glbIntegrityProblem } from "./glb-header";

function glb(declaredLength: number, actualLength = declaredLength, version = 2): ArrayBuffer {
  const bytes = new ArrayBuffer(actualLength);
  const view = new DataView(bytes);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, version, true);
  view.setUint32(8, declaredLength, true);
  return bytes;
}

describe("glbIntegrityProblem", () => {
  it("accepts a complete file", () => {
    expect(glbIntegrityProblem(glb(100))).toBeNull();
    expect(glbIntegrityProblem(glb(100, 104))).toBeNull(); // trailing padding is harmless
  });
  it("reports truncation with byte counts", () => {
    expect(glbIntegrityProblem(glb(1000, 400))).toBe("the GLB file is truncated: 400 of 1000 bytes");
  });
  it("rejects glTF 1.0 binaries and non-GLB data", () => {
    expect(glbIntegrityProblem(glb(100, 100, 1))).toMatch(/version 1/);
    expect(glbIntegrityProblem(new ArrayBuffer(40))).toBe("the file is not a GLB");
    expect(glbIntegrityProblem(new ArrayBuffer(4))).toBe("the GLB file is too short");
  });
});
