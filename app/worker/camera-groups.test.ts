import { describe, expect, it } from "vitest";
import { groupCameras, type FrameCamera } from "./camera-groups";

const phone = { make: "Apple", model: "iPhone 15", focalLength: 6.86, focalLengthIn35mmFilm: 24 };
const frame = (name: string, camera: Partial<FrameCamera> = {}): FrameCamera => ({ frame: name, width: 1600, height: 1200, ...phone, ...camera });

describe("groupCameras", () => {
  it("gives one phone's landscape shots one camera, its portrait shots another", () => {
    const groups = groupCameras([frame("a"), frame("b", { width: 1200, height: 1600 }), frame("c"), frame("d", { width: 1200, height: 1600 })]);
    expect(groups.map((g) => [g.width, g.height, g.frames])).toEqual([
      [1600, 1200, ["a", "c"]],
      [1200, 1600, ["b", "d"]],
    ]);
  });

  it("separates lenses of one phone and phones of one size", () => {
    const groups = groupCameras([
      frame("wide"),
      frame("tele", { focalLength: 15.66, focalLengthIn35mmFilm: 77 }),
      frame("wide-2"),
      frame("other-phone", { make: "Google", model: "Pixel 8" }),
      frame("zoomed", { focalLengthIn35mmFilm: 48 }),
    ]);
    expect(groups.map((g) => g.frames)).toEqual([["wide", "wide-2"], ["tele"], ["other-phone"], ["zoomed"]]);
  });

  it("keeps photos without EXIF of one size together, as one camera", () => {
    const none = { make: null, model: null, focalLength: null, focalLengthIn35mmFilm: null };
    const groups = groupCameras([frame("a", none), frame("b", none), frame("c", { ...none, width: 800, height: 600 })]);
    expect(groups.map((g) => g.frames)).toEqual([["a", "b"], ["c"]]);
    expect(groups[0]).toMatchObject({ width: 1600, height: 1200, make: null, focalLength: null });
  });
});
