import { describe, expect, it } from "vitest";
import {
  backgroundCss,
  backgroundRowColour,
  backgroundStops,
  ENVIRONMENT_NAMES,
  ENVIRONMENTS,
  environmentColour,
  environmentPixels,
  environmentRadiance,
  hexToRgb,
  rgbToHex,
} from "./background";

describe("viewer backgrounds", () => {
  it("turns each kind into the colours a frame without WebGL shows, top to bottom", () => {
    expect(backgroundStops(null)).toEqual(["#1e1f22"]);
    expect(backgroundCss("#abcdef")).toBe("#abcdef");
    expect(backgroundCss({ type: "gradient", top: "#102030", bottom: "#405060" })).toBe("linear-gradient(to bottom, #102030, #405060)");
    for (const name of ENVIRONMENT_NAMES) {
      const stops = backgroundStops({ type: "environment", name });
      expect(stops, name).toHaveLength(3);
      stops.forEach((stop) => expect(stop).toMatch(/^#[0-9a-f]{6}$/));
    }
  });

  it("blends a gradient's rows evenly in sRGB, ending on its two colours", () => {
    const stops = [hexToRgb("#000000"), hexToRgb("#ff8000")];
    expect(rgbToHex(backgroundRowColour(stops, 0, 256))).toBe("#000000");
    expect(rgbToHex(backgroundRowColour(stops, 255, 256))).toBe("#ff8000");
    expect(backgroundRowColour(stops, 51, 256)[0]).toBeCloseTo(0.2, 9);
  });

  it("draws each environment as a sky above and a floor below, with its lights brighter than the sky around them", () => {
    for (const name of ENVIRONMENT_NAMES) {
      const luminance = ([r, g, b]: number[]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
      expect(luminance(environmentColour(name, 180, 30)), name).toBeGreaterThan(luminance(environmentColour(name, 180, -30)));
      const pixels = environmentPixels(name, 64);
      expect(pixels).toHaveLength(64 * 32 * 4);
      // Rows from the bottom (the floor) up; every pixel opaque.
      expect(luminance([...pixels.slice(0, 3)].map((v) => v / 255))).toBeLessThan(luminance([...pixels.slice(-4, -1)].map((v) => v / 255)));
      for (let i = 3; i < pixels.length; i += 4) expect(pixels[i]).toBe(255);
    }
    // The outdoor sun (azimuth 40°, elevation 50°) outshines the sky opposite it.
    const sun = environmentColour("outdoor", 40, 50);
    const away = environmentColour("outdoor", 220, 50);
    expect(Math.min(...sun)).toBeGreaterThan(Math.min(...away) + 0.2);
  });

  it("lights meshes with its lights far brighter than its sky (an 8-bit sky alone lights them dimly)", () => {
    for (const name of ENVIRONMENT_NAMES) {
      const radiance = environmentRadiance(name, 128);
      let brightest = 0;
      let sky = 0;
      for (let i = 0; i < radiance.length; i += 4) {
        const value = Math.max(radiance[i], radiance[i + 1], radiance[i + 2]);
        brightest = Math.max(brightest, value);
        if (value <= 1) sky = Math.max(sky, value);
      }
      expect(brightest, name).toBeGreaterThan(ENVIRONMENTS[name].lights[0].radiance * 0.5);
      expect(sky, name).toBeLessThanOrEqual(1);
    }
  });
});
