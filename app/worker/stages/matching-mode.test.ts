import { describe, expect, it } from "vitest";
import { matchingMode } from "./colmap.server";

describe("how a scan's images are matched", () => {
  it("matches a video's frames in sequence, a small photo set exhaustively and a larger one by the pre-pass's pairs", () => {
    expect(matchingMode("video", 300, "overlap")).toBe("sequential");
    expect(matchingMode("image", 16, "overlap")).toBe("exhaustive");
    expect(matchingMode("image", 17, "overlap")).toBe("overlap");
    expect(matchingMode("image", 300, "overlap")).toBe("overlap");
  });

  it("with SCAN_PHOTO_MATCHING=exhaustive matches every pair up to 80 photos, neighbours and keyframes above, as before decision 052", () => {
    expect(matchingMode("image", 50, "exhaustive")).toBe("exhaustive");
    expect(matchingMode("image", 80, "exhaustive")).toBe("exhaustive");
    expect(matchingMode("image", 81, "exhaustive")).toBe("pairs");
    expect(matchingMode("video", 81, "exhaustive")).toBe("sequential");
  });
});
