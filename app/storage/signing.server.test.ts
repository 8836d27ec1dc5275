import { describe, expect, it } from "vitest";
import { buildSignedPath, verifySigned } from "./signing.server";

const SECRET = "test-secret";
const now = 1_800_000_000;

function queryOf(path: string) {
  return new URL(path, "http://x").searchParams;
}

describe("signed storage URLs", () => {
  const path = buildSignedPath({ method: "PUT", key: "items/a/model/b.glb", expires: now + 60, max: 1000, expect: "glb" }, SECRET);

  it("verify for the same method, key and constraints before expiry", () => {
    const result = verifySigned("PUT", "items/a/model/b.glb", queryOf(path), SECRET, now);
    expect(result).toEqual({ ok: true, params: { method: "PUT", key: "items/a/model/b.glb", expires: now + 60, max: 1000, expect: "glb", name: undefined } });
  });

  it("fail for another key, another method, a changed limit or a wrong secret", () => {
    expect(verifySigned("PUT", "items/a/model/c.glb", queryOf(path), SECRET, now)).toEqual({ ok: false, reason: "bad_signature" });
    expect(verifySigned("GET", "items/a/model/b.glb", queryOf(path), SECRET, now)).toEqual({ ok: false, reason: "bad_signature" });
    const changed = queryOf(path);
    changed.set("max", "999999");
    expect(verifySigned("PUT", "items/a/model/b.glb", changed, SECRET, now)).toEqual({ ok: false, reason: "bad_signature" });
    expect(verifySigned("PUT", "items/a/model/b.glb", queryOf(path), "other", now)).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("fail once expired, and without a signature", () => {
    expect(verifySigned("PUT", "items/a/model/b.glb", queryOf(path), SECRET, now + 61)).toEqual({ ok: false, reason: "expired" });
    expect(verifySigned("PUT", "items/a/model/b.glb", new URLSearchParams(), SECRET, now)).toEqual({ ok: false, reason: "missing" });
  });
});
