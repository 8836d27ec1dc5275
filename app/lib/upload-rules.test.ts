import { describe, expect, it } from "vitest";
import { allowsMoreFiles, classifyFile, formatBytes, MESSAGES, nameFromFileName, validateSelection } from "./upload-rules";

describe("validateSelection", () => {
  it("accepts one model file of each supported type", () => {
    for (const name of ["cat.glb", "guitar.ply", "guitar.KSPLAT"]) {
      expect(validateSelection([{ name, size: 10 }])).toEqual({ ok: true, kind: "model" });
    }
  });

  it("refuses a model mixed with images, and images mixed with a video", () => {
    expect(validateSelection([{ name: "a.glb", size: 1 }, { name: "b.jpg", size: 1 }])).toEqual({ ok: false, message: MESSAGES.mixedTypes });
    expect(validateSelection([{ name: "a.jpg", size: 1 }, { name: "b.mp4", size: 1 }])).toEqual({ ok: false, message: MESSAGES.mixedTypes });
  });

  it("refuses a second model file", () => {
    expect(validateSelection([{ name: "a.glb", size: 1 }, { name: "b.ply", size: 1 }])).toEqual({ ok: false, message: MESSAGES.tooManyOfType });
  });

  it("refuses a file without an extension", () => {
    expect(validateSelection([{ name: "model", size: 1 }])).toEqual({ ok: false, message: MESSAGES.noExtension });
    expect(validateSelection([{ name: "model.", size: 1 }])).toEqual({ ok: false, message: MESSAGES.noExtension });
  });

  it("refuses kinds the dialog does not allow", () => {
    expect(validateSelection([{ name: "a.jpg", size: 1 }], ["model"])).toEqual({ ok: false, message: MESSAGES.unsupportedType });
    expect(validateSelection([{ name: "notes.txt", size: 1 }])).toEqual({ ok: false, message: MESSAGES.unsupportedType });
  });
});

describe("file helpers", () => {
  it("classifies by extension and by MIME type", () => {
    expect(classifyFile({ name: "clip.MOV" })).toBe("video");
    expect(classifyFile({ name: "photo.bin", type: "image/jpeg" })).toBe("image");
    expect(classifyFile({ name: "scene.ksplat" })).toBe("model");
  });

  it("names a model after its file without the extension", () => {
    expect(nameFromFileName("Egyptian cat.v2.glb")).toBe("Egyptian cat.v2");
  });

  it("formats sizes in base 1024 with up to two decimals", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(3_618_192)).toBe("3.45 MB");
    expect(formatBytes(5 * 1024 ** 3)).toBe("5 GB");
  });

  it("allows adding files only where a selection may hold several", () => {
    expect(allowsMoreFiles("image")).toBe(true);
    expect(allowsMoreFiles("model")).toBe(false);
    expect(allowsMoreFiles("video")).toBe(false);
  });
});
