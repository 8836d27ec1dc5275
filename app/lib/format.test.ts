import { describe, expect, it } from "vitest";
import { formatDuration } from "./format";

describe("formatDuration", () => {
  it("says seconds under a minute, minutes under an hour, then hours and minutes", () => {
    expect(formatDuration(0)).toBe("0 s");
    expect(formatDuration(45.4)).toBe("45 s");
    expect(formatDuration(89)).toBe("1 min");
    expect(formatDuration(3 * 60 + 40)).toBe("4 min");
    expect(formatDuration(2 * 3600)).toBe("2 h");
    expect(formatDuration(80 * 60)).toBe("1 h 20 min");
  });
});
