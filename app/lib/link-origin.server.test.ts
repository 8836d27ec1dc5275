import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";
import { linkOriginOf, trustedProxyMatcher, type RequestArrival } from "./link-origin.server";

/** The rules server.ts makes from a configuration, here from a local one on port 3000 behind a proxy at 10.0.0.5. */
function rulesFor(source: Record<string, string>) {
  const env = parseEnv(source);
  return { appUrl: env.APP_URL, linkHosts: env.linkHosts, isTrustedProxy: trustedProxyMatcher(env.TRUSTED_PROXIES) };
}
const local = rulesFor({ APP_URL: "https://scanroom.test", TRUSTED_PROXIES: "10.0.0.5", LEGACY_HOSTS: "old.scanroom.test" });

const direct = (host: string | undefined, more: Partial<RequestArrival> = {}): RequestArrival => ({
  host,
  forwardedHost: undefined,
  forwardedProto: undefined,
  peerAddress: "203.0.113.9",
  encrypted: false,
  ...more,
});
const viaProxy = (forwardedHost: string, forwardedProto = "https"): RequestArrival =>
  direct("internal:3000", { forwardedHost, forwardedProto, peerAddress: "10.0.0.5" });

describe("linkOriginOf", () => {
  it("answers APP_URL for a forged Host", () => {
    for (const host of ["evil.test", "evil.test:3000", "scanroom.test.evil.test", "localhost:3000@evil.test", "evil.test/x", " evil.test", "", undefined]) {
      expect(linkOriginOf(direct(host), local), String(host)).toBe("https://scanroom.test");
    }
  });

  it("ignores X-Forwarded-Host and -Proto from anyone but a configured proxy", () => {
    expect(linkOriginOf(direct("127.0.0.1:3000", { forwardedHost: "evil.test", forwardedProto: "https" }), local)).toBe("http://127.0.0.1:3000");
    expect(linkOriginOf(direct("evil.test", { forwardedHost: "localhost:3000" }), local)).toBe("https://scanroom.test");
  });

  it("answers APP_URL for a forged X-Forwarded-Host that a configured proxy passes on", () => {
    expect(linkOriginOf(viaProxy("evil.test"), local)).toBe("https://scanroom.test");
    expect(linkOriginOf(viaProxy("evil.test, localhost:3000"), local)).toBe("https://scanroom.test");
  });

  it("believes a configured proxy's X-Forwarded-Host and -Proto when the host is allowed", () => {
    expect(linkOriginOf(viaProxy("localhost:3000"), local)).toBe("https://localhost:3000");
    expect(linkOriginOf(viaProxy("localhost:3000", "http"), local)).toBe("http://localhost:3000");
    // A scheme other than http or https is not one; the connection's own is used.
    expect(linkOriginOf(viaProxy("localhost:3000", "javascript"), local)).toBe("http://localhost:3000");
    // Without X-Forwarded-Host, the proxy's Host header is the one it was asked for.
    expect(linkOriginOf(direct("localhost:3000", { peerAddress: "10.0.0.5", forwardedProto: "https" }), local)).toBe("https://localhost:3000");
  });

  it("keeps the local profile's loopback names of the configured port, and only those", () => {
    expect(linkOriginOf(direct("127.0.0.1:3000"), local)).toBe("http://127.0.0.1:3000");
    expect(linkOriginOf(direct("LOCALHOST:3000"), local)).toBe("http://localhost:3000");
    expect(linkOriginOf(direct("[::1]:3000"), local)).toBe("http://[::1]:3000");
    expect(linkOriginOf(direct("127.0.0.1:4000"), local)).toBe("https://scanroom.test");
    expect(linkOriginOf(direct("127.0.0.2:3000"), local)).toBe("https://scanroom.test");
    expect(linkOriginOf(direct("localhost"), local)).toBe("https://scanroom.test");
  });

  it("keeps the legacy hosts, on any port when listed without one", () => {
    expect(linkOriginOf(direct("old.scanroom.test"), local)).toBe("http://old.scanroom.test");
    expect(linkOriginOf(direct("Old.Scanroom.Test:8080", { encrypted: true }), local)).toBe("https://old.scanroom.test:8080");
  });

  it("answers APP_URL for every host when no other is allowed (production without legacy hosts)", () => {
    const appOnly = { ...local, linkHosts: [] };
    for (const host of ["127.0.0.1:3000", "localhost:3000", "scanroom.test", "evil.test"]) {
      expect(linkOriginOf(direct(host), appOnly), host).toBe("https://scanroom.test");
    }
  });
});

describe("trustedProxyMatcher", () => {
  it("matches listed addresses and ranges, IPv4-mapped IPv6 peers as IPv4", () => {
    const isTrusted = trustedProxyMatcher(["10.0.0.5", "192.168.0.0/16", "2001:db8::/32"]);
    for (const address of ["10.0.0.5", "::ffff:10.0.0.5", "192.168.40.2", "2001:db8::7"]) expect(isTrusted(address), address).toBe(true);
    for (const address of ["10.0.0.6", "::ffff:10.0.0.6", "172.16.0.1", "2001:db9::1", "::1", "", undefined, "not an address"]) {
      expect(isTrusted(address), String(address)).toBe(false);
    }
  });

  it("trusts nobody when none is configured", () => {
    const isTrusted = trustedProxyMatcher([]);
    expect(isTrusted("127.0.0.1")).toBe(false);
    expect(isTrusted("10.0.0.5")).toBe(false);
  });
});
