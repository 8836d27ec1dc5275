import { describe, expect, it } from "vitest";
import { legacyHostRedirect, legacyPageFor, parseLegacyHosts } from "./legacy";

describe("legacyPageFor", () => {
  it("maps each legacy path, with or without a trailing slash", () => {
    expect(legacyPageFor("/CUHK/metaverse")).toBe("/legacy/cuhk-metaverse.html");
    expect(legacyPageFor("/CUHK/metaverse/")).toBe("/legacy/cuhk-metaverse.html");
    expect(legacyPageFor("/STW/Builder")).toBe("/legacy/stw-builder.html");
    expect(legacyPageFor("/STW/HKEEIA/")).toBe("/legacy/stw-hkeeia.html");
    expect(legacyPageFor("/dgs2/")).toBe("/legacy/dgs2.html");
    expect(legacyPageFor("/main")).toBe("/legacy/main.html");
  });
  it("ignores other paths", () => {
    expect(legacyPageFor("/dgs3")).toBeNull();
    expect(legacyPageFor("/main/other")).toBeNull();
    expect(legacyPageFor("/")).toBeNull();
  });
});

describe("legacyHostRedirect", () => {
  const base = { legacyHosts: parseLegacyHosts(" Old.Example.com ,legacy.test:8080"), appUrl: "https://scanroom.app" };
  it("sends a legacy host to the main host with the same path and query", () => {
    expect(legacyHostRedirect({ ...base, host: "old.example.com", originalUrl: "/item/1?x=2&y=3" })).toBe("https://scanroom.app/item/1?x=2&y=3");
    expect(legacyHostRedirect({ ...base, host: "OLD.example.com:443", originalUrl: "/" })).toBe("https://scanroom.app/");
    expect(legacyHostRedirect({ ...base, host: "legacy.test:8080", originalUrl: "/a" })).toBe("https://scanroom.app/a");
  });
  it("leaves other hosts alone and never redirects to itself", () => {
    expect(legacyHostRedirect({ ...base, host: "scanroom.app", originalUrl: "/" })).toBeNull();
    expect(legacyHostRedirect({ ...base, host: undefined, originalUrl: "/" })).toBeNull();
    expect(legacyHostRedirect({ legacyHosts: ["scanroom.app"], appUrl: "https://scanroom.app", host: "scanroom.app", originalUrl: "/" })).toBeNull();
  });
  it("does not turn a protocol-relative path into another host", () => {
    expect(legacyHostRedirect({ ...base, host: "old.example.com", originalUrl: "//evil.example/x" })).toBe("https://scanroom.app/");
  });
});
