import { describe, expect, it, vi } from "vitest";
import { Emitter } from "./emitter";

describe("Emitter", () => {
  it("delivers to listeners until they unsubscribe", () => {
    const emitter = new Emitter<{ ping: number }>();
    const listener = vi.fn();
    const off = emitter.on("ping", listener);
    emitter.emit("ping", 1);
    off();
    emitter.emit("ping", 2);
    expect(listener.mock.calls).toEqual([[1]]);
  });
  it("keeps notifying when a listener throws", () => {
    const emitter = new Emitter<{ ping: number }>();
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const second = vi.fn();
    emitter.on("ping", () => {
      throw new Error("bad listener");
    });
    emitter.on("ping", second);
    emitter.emit("ping", 3);
    expect(second).toHaveBeenCalledWith(3);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
  it("forgets everything on clear()", () => {
    const emitter = new Emitter<{ ping: number }>();
    const listener = vi.fn();
    emitter.on("ping", listener);
    emitter.clear();
    emitter.emit("ping", 1);
    expect(listener).not.toHaveBeenCalled();
  });
});
