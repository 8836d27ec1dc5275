import { describe, expect, it } from "vitest";
import {
  applyViewerSettingsPatch,
  DEFAULT_VIEWER_SETTINGS,
  LEGACY_VIEW_ASPECT,
  migrateViewerSettings,
  storedViewerSettings,
  VIEWER_SETTINGS_VERSION,
  viewerSettingsPatchSchema,
} from "./viewer-settings";

const camera = { position: [1, 2, 3] as [number, number, number], target: [0, 0.5, 0] as [number, number, number] };

describe("migrateViewerSettings", () => {
  it("gives the defaults when nothing was ever stored", () => {
    expect(migrateViewerSettings(null, null)).toEqual(DEFAULT_VIEWER_SETTINGS);
    expect(migrateViewerSettings(undefined, 1)).toEqual(DEFAULT_VIEWER_SETTINGS);
    expect(migrateViewerSettings([1, 2], 1)).toEqual(DEFAULT_VIEWER_SETTINGS);
  });

  it("reads current settings unchanged", () => {
    const stored = { camera, background: "#102030", autorotate: true, autorotate_speed: 2.5, fov: 60, units: "cm", meters_per_unit: 0.01 };
    expect(migrateViewerSettings(stored, VIEWER_SETTINGS_VERSION)).toEqual({ version: VIEWER_SETTINGS_VERSION, ...stored });
  });

  it("gives a version-1 scan view (a capture camera's field of view, no frame shape) the landscape shape, and nothing else", () => {
    const scanView = { ...camera, fov: 52.3 };
    expect(migrateViewerSettings({ camera: scanView }, 1).camera).toEqual({ ...scanView, aspect: LEGACY_VIEW_ASPECT });
    expect(migrateViewerSettings({ camera }, 1).camera).toEqual(camera); // an owner's view, saved without a field of view
    const current = { ...scanView, aspect: 0.5625 };
    expect(migrateViewerSettings({ camera: current }, VIEWER_SETTINGS_VERSION).camera).toEqual(current);
  });

  it("refuses an autorotation speed or a field of view out of range", () => {
    expect(viewerSettingsPatchSchema.safeParse({ autorotate_speed: 0.25, fov: 20 }).success).toBe(true);
    expect(viewerSettingsPatchSchema.safeParse({ fov: null }).success).toBe(true);
    for (const bad of [{ autorotate_speed: 0 }, { autorotate_speed: 5 }, { fov: 10 }, { fov: 120 }, { fov: "wide" }]) {
      expect(viewerSettingsPatchSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("upgrades unversioned JSON: {x,y,z} camera vectors become arrays, missing fields take defaults", () => {
    const stored = { camera: { position: { x: 1, y: 2, z: 3 }, target: { x: 0, y: 0.5, z: 0 } }, autorotate: true };
    expect(migrateViewerSettings(stored, null)).toEqual({ ...DEFAULT_VIEWER_SETTINGS, camera, autorotate: true });
    expect(migrateViewerSettings(stored, 0)).toEqual(migrateViewerSettings(stored, null));
  });

  it("drops fields that no longer validate instead of failing the viewer", () => {
    const stored = {
      camera: { position: [1, 2, 3], target: [1, 2, 3] }, // position equals target
      background: "url(javascript:alert(1))",
      autorotate: "yes",
      units: "furlong",
      meters_per_unit: -2,
    };
    expect(migrateViewerSettings(stored, 1)).toEqual(DEFAULT_VIEWER_SETTINGS);
  });

  it("reads a version-2 colour background (and none) unchanged into version 3", () => {
    expect(VIEWER_SETTINGS_VERSION).toBe(3);
    const v2 = { camera: { ...camera, fov: 50, aspect: 1.5 }, background: "#102030", autorotate: true, autorotate_speed: 2, fov: 60, units: "cm", meters_per_unit: null };
    expect(migrateViewerSettings(v2, 2)).toEqual({ version: 3, ...v2 });
    expect(migrateViewerSettings({ ...v2, background: null }, 2).background).toBeNull();
    // Version 0 and 1 rows keep their colour through every step.
    expect(migrateViewerSettings({ background: "#abcdef" }, null).background).toBe("#abcdef");
    expect(migrateViewerSettings({ background: "#abcdef" }, 1).background).toBe("#abcdef");
  });

  it("reads gradient and environment backgrounds, and drops malformed ones to the default", () => {
    const gradient = { type: "gradient", top: "#336699", bottom: "#f0e0d0" };
    expect(migrateViewerSettings({ background: gradient }, 3).background).toEqual(gradient);
    expect(migrateViewerSettings({ background: { type: "environment", name: "sunset" } }, 3).background).toEqual({ type: "environment", name: "sunset" });
    for (const bad of [
      { type: "gradient", top: "#336699" },
      { type: "gradient", top: "#336699", bottom: "blue" },
      { type: "environment", name: "moon" },
      { type: "image", url: "https://example.com/sky.hdr" },
    ]) {
      expect(migrateViewerSettings({ background: bad, autorotate: true }, 3), JSON.stringify(bad)).toEqual({ ...DEFAULT_VIEWER_SETTINGS, autorotate: true });
    }
  });

  it("reads settings of a newer release field by field", () => {
    expect(migrateViewerSettings({ autorotate: true, lighting: "studio" }, VIEWER_SETTINGS_VERSION + 1)).toEqual({
      ...DEFAULT_VIEWER_SETTINGS,
      autorotate: true,
    });
  });
});

describe("patching and storing", () => {
  it("validates a patch: known fields only, sane values, not empty", () => {
    expect(viewerSettingsPatchSchema.safeParse({ autorotate: true }).success).toBe(true);
    expect(viewerSettingsPatchSchema.safeParse({ camera: null, background: null, meters_per_unit: null }).success).toBe(true);
    for (const bad of [
      {},
      { background: "red" },
      { units: "furlong" },
      { autorotate: "true" },
      { meters_per_unit: 0 },
      { camera: { position: [0, 0, 1] } },
      { camera: { position: [0, 0, 1], target: [0, 0, 1] } },
      { camera: { position: [0, 0, Number.POSITIVE_INFINITY], target: [0, 0, 0] } },
      { zoom: 2 },
    ]) {
      expect(viewerSettingsPatchSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("accepts a colour, a gradient or an environment as the background, lower-cased; refuses anything else", () => {
    const parse = (background: unknown) => viewerSettingsPatchSchema.safeParse({ background });
    expect(parse({ type: "gradient", top: "#ABC", bottom: "#102030" })).toMatchObject({ success: true, data: { background: { type: "gradient", top: "#abc", bottom: "#102030" } } });
    for (const name of ["studio", "outdoor", "sunset"]) expect(parse({ type: "environment", name }).success, name).toBe(true);
    for (const bad of [
      "linear-gradient(red, blue)",
      { type: "gradient", top: "#fff" },
      { type: "gradient", top: "#fff", bottom: "#000", middle: "#888" },
      { type: "gradient", top: "red", bottom: "#000" },
      { type: "environment", name: "moon" },
      { type: "environment", name: "studio", url: "https://example.com/sky.hdr" },
      { type: "image" },
      ["#fff", "#000"],
      42,
    ]) {
      const result = parse(bad);
      expect(result.success, JSON.stringify(bad)).toBe(false);
      // What is allowed, or (an environment with a key too many) the key that is not.
      if (!result.success) expect(result.error.issues[0].message).toMatch(/^must be a hex colour such as #1e1f22, .*gradient.*environment|^Unrecognized key\(s\) in object: 'url'/);
    }
  });

  it("applies only the fields a patch names; null resets to the default", () => {
    const start = applyViewerSettingsPatch(DEFAULT_VIEWER_SETTINGS, viewerSettingsPatchSchema.parse({ camera, background: "#ABCDEF", units: "in" }));
    expect(start).toEqual({ ...DEFAULT_VIEWER_SETTINGS, camera, background: "#abcdef", units: "in" });
    const next = applyViewerSettingsPatch(start, { background: null, autorotate: true });
    expect(next).toEqual({ ...start, background: null, autorotate: true });
  });

  it("stores the JSON and its version separately, and reads back what it stored", () => {
    const settings = applyViewerSettingsPatch(DEFAULT_VIEWER_SETTINGS, { camera, meters_per_unit: 0.5, background: { type: "gradient", top: "#102030", bottom: "#405060" } });
    const row = storedViewerSettings(settings);
    expect(row.settingsVersion).toBe(VIEWER_SETTINGS_VERSION);
    expect(row.settings).not.toHaveProperty("version");
    expect(migrateViewerSettings(JSON.parse(JSON.stringify(row.settings)), row.settingsVersion)).toEqual(settings);
  });
});
