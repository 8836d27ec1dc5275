import { describe, expect, it } from "vitest";
import { toError } from "./errors";

describe("toError", () => {
  it("keeps Errors with a message", () => {
    const error = new Error("x");
    expect(toError(error, "fallback")).toBe(error);
  });
  it("wraps strings and message-bearing objects", () => {
    expect(toError("Invalid gzip header", "fallback").message).toBe("Invalid gzip header");
    expect(toError({ message: "worker said no" }, "fallback").message).toBe("worker said no");
  });
  it("falls back for anything else", () => {
    expect(toError(undefined, "fallback").message).toBe("fallback");
    expect(toError(new Error(""), "fallback").message).toBe("fallback");
    expect(toError("  ", "fallback").message).toBe("fallback");
  });
});
