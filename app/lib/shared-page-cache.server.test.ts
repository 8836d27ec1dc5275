import { describe, expect, it } from "vitest";
import { sharedMaxAge } from "./shared-page-cache.server";

describe("sharedMaxAge", () => {
  it("reads s-maxage of public answers only", () => {
    expect(sharedMaxAge("public, max-age=0, s-maxage=10")).toBe(10);
    expect(sharedMaxAge("Public, S-MaxAge=3600")).toBe(3600);
    expect(sharedMaxAge("public, max-age=3600")).toBe(0);
    expect(sharedMaxAge("private, s-maxage=10")).toBe(0);
    expect(sharedMaxAge("public, no-store, s-maxage=10")).toBe(0);
    expect(sharedMaxAge("s-maxage=10")).toBe(0);
    expect(sharedMaxAge("public, s-maxage=abc")).toBe(0);
    expect(sharedMaxAge(undefined)).toBe(0);
  });
});
