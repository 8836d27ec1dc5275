import { describe, expect, it } from "vitest";
import { deviceProfile, environmentMapSize, rendererName } from "./device-profile";

describe("deviceProfile", () => {
  it("caps phones harder than tablets and desktops", () => {
    const phone = deviceProfile({ coarsePointer: true, shortSide: 390 });
    const tablet = deviceProfile({ coarsePointer: true, shortSide: 820 });
    const desktop = deviceProfile({ coarsePointer: false, shortSide: 1080 });
    expect(phone).toEqual({ kind: "phone", maxPixelRatio: 1.5, splatBudget: 1_000_000 });
    expect(tablet.kind).toBe("tablet");
    expect(desktop.kind).toBe("desktop");
    expect(phone.splatBudget).toBeLessThan(tablet.splatBudget);
    expect(tablet.splatBudget).toBeLessThan(desktop.splatBudget);
    expect(phone.maxPixelRatio).toBeLessThan(desktop.maxPixelRatio);
  });

  it("halves the budget where the browser reports little memory", () => {
    expect(deviceProfile({ coarsePointer: true, shortSide: 360, memoryGb: 2 }).splatBudget).toBe(500_000);
    expect(deviceProfile({ coarsePointer: false, shortSide: 900, memoryGb: 1 }).splatBudget).toBe(1_500_000);
    expect(deviceProfile({ coarsePointer: false, shortSide: 900, memoryGb: 8 }).splatBudget).toBe(3_000_000);
  });
});

describe("environmentMapSize", () => {
  it("prefilters the meshes' lighting at three's 256 on a GPU and at 64 under a software rasteriser", () => {
    expect(environmentMapSize("ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)")).toBe(256);
    expect(environmentMapSize("Apple M2")).toBe(256);
    expect(environmentMapSize("ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)")).toBe(64);
    expect(environmentMapSize("llvmpipe (LLVM 15.0.6, 256 bits)")).toBe(64);
    expect(environmentMapSize("ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0, D3D11)")).toBe(64);
    expect(environmentMapSize("")).toBe(256);
  });

  it("reads the unmasked renderer where the browser gives it, and the plain one otherwise", () => {
    const UNMASKED_RENDERER_WEBGL = 0x9246;
    const RENDERER = 0x1f01;
    const context = (withInfo: boolean) =>
      ({
        RENDERER,
        getExtension: (name: string) => (withInfo && name === "WEBGL_debug_renderer_info" ? { UNMASKED_RENDERER_WEBGL } : null),
        getParameter: (parameter: number) => (parameter === UNMASKED_RENDERER_WEBGL ? "SwiftShader Device" : parameter === RENDERER ? "WebKit WebGL" : null),
      }) as unknown as WebGL2RenderingContext;
    expect(rendererName(context(true))).toBe("SwiftShader Device");
    expect(rendererName(context(false))).toBe("WebKit WebGL");
  });
});
