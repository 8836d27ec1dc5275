import { describe, expect, it } from "vitest";
import {
  allowsMoreFiles,
  checkVideo,
  classifyFile,
  formatBytes,
  hasScanCredits,
  imageCountProblem,
  imageSetName,
  imageUploadName,
  isSupportedVideoAspect,
  MESSAGES,
  nameFromFileName,
  parseImageUploadName,
  partRanges,
  partSizeFor,
  scanDuration,
  validateSelection,
} from "./upload-rules";

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
    expect(classifyFile({ name: "scene.spz" })).toBe("model");
    expect(classifyFile({ name: "scene.SPLAT" })).toBe("model");
    expect(classifyFile({ name: "scene.sog" })).toBe("model");
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

describe("SPEC §5 scan rules", () => {
  it("accepts 16:9 landscape and 9:16 portrait videos within 0.02 on both sides, and refuses beyond", () => {
    expect(isSupportedVideoAspect(1920, 1080)).toBe(true);
    expect(isSupportedVideoAspect(1080, 1920)).toBe(true);
    // 16/9 = 1.77778; the accepted band is [1.75778, 1.79778].
    expect(isSupportedVideoAspect(17977, 10000)).toBe(true); // 1.7977
    expect(isSupportedVideoAspect(17979, 10000)).toBe(false); // 1.7979
    expect(isSupportedVideoAspect(17578, 10000)).toBe(true); // 1.7578
    expect(isSupportedVideoAspect(17576, 10000)).toBe(false); // 1.7576
    expect(isSupportedVideoAspect(10000, 17977)).toBe(true); // portrait, same band
    expect(isSupportedVideoAspect(10000, 17979)).toBe(false);
    expect(isSupportedVideoAspect(1440, 1080)).toBe(false); // 4:3
    expect(isSupportedVideoAspect(1080, 1080)).toBe(false);
    expect(isSupportedVideoAspect(0, 1080)).toBe(false);
  });

  it("asks before trimming a video longer than 180 s and refuses a wrong aspect first", () => {
    expect(checkVideo({ duration: 180, width: 1920, height: 1080 })).toEqual({ verdict: "accept" });
    expect(checkVideo({ duration: 180.1, width: 1920, height: 1080 })).toEqual({
      verdict: "confirm_trim",
      title: "Max Video Length Exceeded",
      message: MESSAGES.videoTooLong,
    });
    expect(checkVideo({ duration: 500, width: 1440, height: 1080 })).toEqual({
      verdict: "refuse",
      title: "Currently not supported.",
      message: "Only 16:9 (landscape or portrait) videos are supported.",
    });
    expect(scanDuration(12.5)).toBe(12.5);
    expect(scanDuration(200)).toBe(180);
  });

  it("needs 20 to 300 images", () => {
    expect(imageCountProblem(0)).toEqual({ message: MESSAGES.tooFewImages });
    expect(imageCountProblem(19)).toEqual({ message: "Number of selected images does not meet the minimum count of 20 images." });
    expect(imageCountProblem(20)).toBeNull();
    expect(imageCountProblem(300)).toBeNull();
    expect(imageCountProblem(301)).toEqual({ title: "Too Many Images", message: "Number of selected images exceeded the maximum of 300 files." });
  });

  it("refuses a selection of 301 images with the Too Many Images dialog, and allows 300", () => {
    const images = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `p${i}.jpg`, size: 1000 }));
    expect(validateSelection(images(300))).toEqual({ ok: true, kind: "image" });
    expect(validateSelection(images(19))).toEqual({ ok: true, kind: "image" });
    expect(validateSelection(images(301))).toEqual({ ok: false, title: "Too Many Images", message: MESSAGES.tooManyImages });
  });

  it("refuses more than one video and oversized scan inputs", () => {
    expect(validateSelection([{ name: "a.mp4", size: 1 }, { name: "b.mov", size: 1 }])).toEqual({ ok: false, message: MESSAGES.tooManyOfType });
    expect(validateSelection([{ name: "a.mp4", size: 2 * 1024 ** 3 }])).toEqual({ ok: true, kind: "video" });
    expect(validateSelection([{ name: "a.mp4", size: 2 * 1024 ** 3 + 1 }])).toEqual({ ok: false, message: MESSAGES.videoTooLarge });
    expect(validateSelection([{ name: "a.jpg", size: 40 * 1024 ** 2 + 1 }])).toEqual({ ok: false, message: MESSAGES.imageTooLarge("a.jpg") });
  });

  it("allows scans while credits remain, or always when scan_quota is -1", () => {
    expect(hasScanCredits({ scan_quota: 3, total_scan_credit: 1 })).toBe(true);
    expect(hasScanCredits({ scan_quota: 3, total_scan_credit: 0 })).toBe(false);
    expect(hasScanCredits({ scan_quota: 0, total_scan_credit: 2 })).toBe(true); // top-ups
    expect(hasScanCredits({ scan_quota: -1, total_scan_credit: -1 })).toBe(true);
    expect(hasScanCredits({ scan_quota: -1, total_scan_credit: 0 })).toBe(true);
    expect(MESSAGES.noScanCredits).toBe(
      "You have used all your available scans for this billing period. Please wait for the next cycle or upgrade your plan for more scans.",
    );
  });

  it("names stored images image-001… keeping the extension, and parses only such names", () => {
    expect(imageUploadName(0, "IMG_2041.JPG")).toBe("image-001.jpg");
    expect(imageUploadName(299, "x.heic")).toBe("image-300.heic");
    expect(parseImageUploadName("image-001.jpg")).toEqual({ number: 1, extension: "jpg" });
    expect(parseImageUploadName("image-300.png")).toEqual({ number: 300, extension: "png" });
    for (const bad of ["image-000.jpg", "image-01.jpg", "image-001.txt", "../image-001.jpg", "image-001.JPG", "image-0001.jpg"]) {
      expect(parseImageUploadName(bad)).toBeNull();
    }
    expect(imageSetName("IMG_2041.jpg")).toBe("IMG_2041.jpg (Image Set)");
  });

  it("splits resumable uploads into parts of at least 8 MiB within 10,000 parts", () => {
    expect(partSizeFor(1000)).toBe(8 * 1024 ** 2);
    expect(partSizeFor(500 * 1024 ** 2)).toBe(8 * 1024 ** 2);
    expect(partSizeFor(200 * 1024 ** 3)).toBe(Math.ceil((200 * 1024 ** 3) / 10_000));
    expect(partRanges(20, 8)).toEqual([
      { start: 0, end: 8 },
      { start: 8, end: 16 },
      { start: 16, end: 20 },
    ]);
    expect(partRanges(16, 8)).toHaveLength(2);
    expect(partRanges(0, 8)).toEqual([{ start: 0, end: 0 }]);
  });
});
