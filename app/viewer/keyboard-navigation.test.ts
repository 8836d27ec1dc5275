import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { PerspectiveCamera } from "three";
import { describe, expect, it } from "vitest";
import { applyOrbitStep, keyAction } from "./keyboard-navigation";

const key = (k: string, extra: Partial<KeyboardEvent> = {}) => ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...extra });

describe("keyAction", () => {
  it("orbits with arrows, pans with Shift+arrows and zooms with +/- in orbit mode", () => {
    expect(keyAction(key("ArrowLeft"), "orbit")).toMatchObject({ type: "orbit" });
    expect(keyAction(key("ArrowUp", { shiftKey: true }), "orbit")).toMatchObject({ type: "pan", x: 0 });
    expect(keyAction(key("+"), "orbit")).toMatchObject({ type: "dolly" });
    expect((keyAction(key("-"), "orbit") as { factor: number }).factor).toBeGreaterThan(1);
  });
  it("moves with W A S D and arrows in fly mode, Escape leaves it", () => {
    expect(keyAction(key("w"), "fly")).toEqual({ type: "fly", direction: "forward" });
    expect(keyAction(key("ArrowLeft"), "fly")).toEqual({ type: "fly", direction: "left" });
    expect(keyAction(key("E"), "fly")).toEqual({ type: "fly", direction: "up" });
    expect(keyAction(key("Escape"), "fly")).toEqual({ type: "exit-fly" });
    expect(keyAction(key("Escape"), "orbit")).toBeNull();
  });
  it("has reset, fullscreen and mode keys everywhere, and leaves browser shortcuts alone", () => {
    for (const mode of ["orbit", "fly"] as const) {
      expect(keyAction(key("r"), mode)).toEqual({ type: "reset" });
      expect(keyAction(key("Home"), mode)).toEqual({ type: "reset" });
      expect(keyAction(key("f"), mode)).toEqual({ type: "fullscreen" });
      expect(keyAction(key("m"), mode)).toEqual({ type: "toggle-mode" });
    }
    expect(keyAction(key("r", { ctrlKey: true }), "orbit")).toBeNull();
    expect(keyAction(key("f", { metaKey: true }), "orbit")).toBeNull();
    expect(keyAction(key("x"), "orbit")).toBeNull();
  });
});

describe("applyOrbitStep", () => {
  function rig() {
    const camera = new PerspectiveCamera(45, 1, 0.01, 100);
    camera.position.set(0, 0, 5);
    const controls = new OrbitControls(camera); // no DOM element: no listeners
    controls.minDistance = 1;
    controls.maxDistance = 6;
    controls.update();
    return { camera, controls };
  }
  it("orbits around the target at the same distance", () => {
    const { camera, controls } = rig();
    applyOrbitStep(camera, controls, { type: "orbit", theta: Math.PI / 2, phi: 0 });
    expect(camera.position.distanceTo(controls.target)).toBeCloseTo(5, 6);
    expect(camera.position.x).toBeCloseTo(5, 6);
  });
  it("zooms within the controls' limits and pans camera and target together", () => {
    const { camera, controls } = rig();
    applyOrbitStep(camera, controls, { type: "dolly", factor: 10 });
    expect(camera.position.distanceTo(controls.target)).toBeCloseTo(6, 6);
    applyOrbitStep(camera, controls, { type: "pan", x: 0.1, y: 0 });
    expect(controls.target.x).toBeCloseTo(0.6, 6);
    expect(camera.position.x).toBeCloseTo(0.6, 6);
  });
});
