import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectedPlyLength, parsePlyHeader, plyRecordBytes, readPlyHeader } from "./ply";
import { SHARED_DATA } from "../../tests/setup/shared-data";

const DATA = SHARED_DATA;
const head = (file: string) => new Uint8Array(readFileSync(path.join(DATA, file)).subarray(0, 64 * 1024));
const text = (body: string) => new TextEncoder().encode(body);

describe("readPlyHeader", () => {
  it("reads a real splat's header: format, elements with their typed properties, where the body starts", () => {
    const header = readPlyHeader(head("splats/guitar.ply"))!;
    expect(header.format).toBe("binary_little_endian");
    expect(header.version).toBe("1.0");
    expect(header.elements.map((e) => [e.name, e.count])).toEqual([["vertex", 90_854]]);
    expect(header.elements[0].properties.slice(0, 3)).toEqual([
      { name: "x", type: "float" },
      { name: "y", type: "float" },
      { name: "z", type: "float" },
    ]);
    expect(plyRecordBytes(header.elements[0])).toBe(header.elements[0].properties.length * 4);
    expect(new TextDecoder().decode(head("splats/guitar.ply").subarray(header.bodyOffset - 11, header.bodyOffset))).toBe("end_header\n");
  });

  it("reads list properties, and says a record with one has no fixed size", () => {
    const header = readPlyHeader(text("ply\nformat binary_little_endian 1.0\nelement vertex 2\nproperty float x\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"))!;
    expect(header.elements[1]).toEqual({ name: "face", count: 1, properties: [{ name: "vertex_indices", type: "int", list: { countType: "uchar" } }] });
    expect(plyRecordBytes(header.elements[0])).toBe(4);
    expect(plyRecordBytes(header.elements[1])).toBeNull();
  });

  it("is null for what is not a whole PLY header, and parsePlyHeader says so", () => {
    expect(readPlyHeader(head("models/cat.glb"))).toBeNull();
    expect(readPlyHeader(text("ply\nformat binary_little_endian 1.0\nelement vertex 1\n"))).toBeNull(); // no end_header
    expect(() => parsePlyHeader(text("solid cube\n"))).toThrow("not a .ply file (no ply header)");
  });
});

describe("expectedPlyLength", () => {
  it("computes the full length of binary PLYs from their header, so truncation shows", () => {
    for (const file of ["splats/guitar.ply", "splats/guitar.compressed.ply", "splats/biker.compressed.ply"]) {
      expect(expectedPlyLength(head(file)), file).toBe(readFileSync(path.join(DATA, file)).length);
    }
  });
  it("gives up on ASCII files and list properties", () => {
    expect(expectedPlyLength(text("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n"))).toBeNull();
    expect(
      expectedPlyLength(text("ply\nformat binary_little_endian 1.0\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n")),
    ).toBeNull();
    expect(expectedPlyLength(head("models/cat.glb"))).toBeNull();
  });
});

