import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { EDITOR_TOKEN_AUDIENCE, EDITOR_TOKEN_SECONDS, signEditorToken, verifyEditorToken } from "./editor-token";

const secret = "a-test-secret-of-enough-length-0123456789";
const issuer = "https://scanroom.example";
const now = 1_800_000_000;
const userId = "8d0f6c1e-6f1a-4a39-9a5e-0a4b3c2d1e0f";
const itemId = "1f2e3d4c-5b6a-4789-8abc-def012345678";

const decode = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const hmac = (input: string, key = secret) => createHmac("sha256", key).update(input).digest("base64url");

describe("editor tokens", () => {
  it("signs an HS256 JWT with the documented claims that verifies", () => {
    const { token } = signEditorToken({ secret, issuer, userId, itemId, now });
    const [header, payload, signature] = token.split(".");
    expect(decode(header)).toEqual({ alg: "HS256", typ: "JWT" });
    const claims = decode(payload);
    expect(claims).toMatchObject({ iss: issuer, aud: EDITOR_TOKEN_AUDIENCE, sub: userId, item_id: itemId, iat: now, exp: now + EDITOR_TOKEN_SECONDS });
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(signature).toBe(hmac(`${header}.${payload}`));
    const check = verifyEditorToken(token, { secret, issuer, now: now + 60 });
    expect(check).toEqual({ ok: true, claims });
    expect(EDITOR_TOKEN_SECONDS).toBe(15 * 60);
  });

  it("gives each token its own jti and leaves item_id out when no item is named", () => {
    const a = signEditorToken({ secret, issuer, userId, now });
    const b = signEditorToken({ secret, issuer, userId, now });
    expect(a.claims.jti).not.toBe(b.claims.jti);
    expect("item_id" in a.claims).toBe(false);
  });

  it("refuses a token whose claims were changed (another item, another user)", () => {
    const { token } = signEditorToken({ secret, issuer, userId, itemId, now });
    const [header, payload, signature] = token.split(".");
    const forged = encode({ ...decode(payload), item_id: "00000000-0000-4000-8000-000000000000" });
    expect(verifyEditorToken(`${header}.${forged}.${signature}`, { secret, issuer, now })).toEqual({ ok: false, problem: "bad_signature" });
    const otherUser = encode({ ...decode(payload), sub: "00000000-0000-4000-8000-000000000001" });
    expect(verifyEditorToken(`${header}.${otherUser}.${signature}`, { secret, issuer, now })).toEqual({ ok: false, problem: "bad_signature" });
  });

  it("refuses a token signed with another secret, and one whose header names another algorithm", () => {
    const { token } = signEditorToken({ secret: "another-secret-another-secret-another", issuer, userId, itemId, now });
    expect(verifyEditorToken(token, { secret, issuer, now })).toEqual({ ok: false, problem: "bad_signature" });
    const { token: good } = signEditorToken({ secret, issuer, userId, itemId, now });
    const [, payload] = good.split(".");
    const none = encode({ alg: "none", typ: "JWT" });
    expect(verifyEditorToken(`${none}.${payload}.${hmac(`${none}.${payload}`)}`, { secret, issuer, now })).toEqual({ ok: false, problem: "malformed" });
  });

  it("refuses an expired token, from its exp on", () => {
    const { token } = signEditorToken({ secret, issuer, userId, itemId, now });
    expect(verifyEditorToken(token, { secret, issuer, now: now + EDITOR_TOKEN_SECONDS - 1 }).ok).toBe(true);
    expect(verifyEditorToken(token, { secret, issuer, now: now + EDITOR_TOKEN_SECONDS })).toEqual({ ok: false, problem: "expired" });
  });

  it("refuses a token issued in the future beyond the clock skew", () => {
    const { token } = signEditorToken({ secret, issuer, userId, itemId, now: now + 3600 });
    expect(verifyEditorToken(token, { secret, issuer, now })).toEqual({ ok: false, problem: "not_yet_valid" });
  });

  it("refuses a correctly signed token with another audience or issuer", () => {
    const header = encode({ alg: "HS256", typ: "JWT" });
    const claims = { iss: issuer, aud: "someone-else", sub: userId, item_id: itemId, iat: now, exp: now + 60, jti: "x" };
    const payload = encode(claims);
    expect(verifyEditorToken(`${header}.${payload}.${hmac(`${header}.${payload}`)}`, { secret, issuer, now })).toEqual({ ok: false, problem: "wrong_audience" });
    const { token } = signEditorToken({ secret, issuer: "https://elsewhere.example", userId, itemId, now });
    expect(verifyEditorToken(token, { secret, issuer, now })).toEqual({ ok: false, problem: "wrong_issuer" });
  });

  it("refuses malformed tokens", () => {
    for (const token of ["", "abc", "a.b", "a.b.c.d", "a.b.c", "é.b.c"]) {
      expect(verifyEditorToken(token, { secret, issuer, now }).ok).toBe(false);
    }
  });
});
