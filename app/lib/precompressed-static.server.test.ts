import { describe, expect, it } from "vitest";
import { pickEncoding, type PrecompressedEncoding } from "./precompressed-static.server";

const both = new Set<PrecompressedEncoding>(["br", "gzip"]);

describe("pickEncoding", () => {
  it("sends brotli to browsers that accept it, in whatever order they list it", () => {
    expect(pickEncoding("gzip, deflate, br, zstd", both)).toBe("br"); // Chrome
    expect(pickEncoding("br;q=1.0, gzip;q=0.8, *;q=0.1", both)).toBe("br");
  });

  it("honours the browser's weights and refusals", () => {
    expect(pickEncoding("br;q=0.5, gzip", both)).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip;q=0.1", both)).toBe("gzip");
    expect(pickEncoding("gzip;q=0, br;q=0", both)).toBeNull();
    expect(pickEncoding("x-gzip", both)).toBe("gzip");
  });

  it("reads * as every coding not named", () => {
    expect(pickEncoding("*", both)).toBe("br");
    expect(pickEncoding("br;q=0, *", both)).toBe("gzip");
  });

  it("sends the file as it is without an acceptable copy", () => {
    expect(pickEncoding(undefined, both)).toBeNull();
    expect(pickEncoding("", both)).toBeNull();
    expect(pickEncoding("identity", both)).toBeNull();
    expect(pickEncoding("deflate", both)).toBeNull();
    expect(pickEncoding("br", new Set<PrecompressedEncoding>(["gzip"]))).toBeNull();
    expect(pickEncoding("br;q=abc, gzip;q=", both)).toBeNull();
  });
});
