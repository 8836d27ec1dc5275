import { createHmac, timingSafeEqual } from "node:crypto";
import { SIGNED_LINKS_PATH } from "~/lib/signed-links";

/**
 * HMAC-signed, expiring URLs for the local-disk driver. The signature covers the method, the key,
 * the expiry and every constraint, so changing any of them invalidates the URL.
 */
export interface SignedParams {
  method: "GET" | "PUT";
  key: string;
  expires: number; // unix seconds
  max?: number;
  expect?: string;
  name?: string;
}

function canonical(p: SignedParams): string {
  return [p.method, p.key, p.expires, p.max ?? "", p.expect ?? "", p.name ?? ""].join("\n");
}

export function sign(params: SignedParams, secret: string): string {
  return createHmac("sha256", secret).update(canonical(params)).digest("base64url");
}

export function buildSignedPath(params: SignedParams, secret: string): string {
  const query = new URLSearchParams({ expires: String(params.expires) });
  if (params.max !== undefined) query.set("max", String(params.max));
  if (params.expect) query.set("expect", params.expect);
  if (params.name) query.set("name", params.name);
  query.set("sig", sign(params, secret));
  const encodedKey = params.key.split("/").map(encodeURIComponent).join("/");
  return `${SIGNED_LINKS_PATH}${encodedKey}?${query.toString()}`;
}

export type VerifyResult =
  | { ok: true; params: SignedParams }
  | { ok: false; reason: "missing" | "expired" | "bad_signature" };

/** Checks a request against its signature; `now` in unix seconds. */
export function verifySigned(
  method: string,
  key: string,
  query: URLSearchParams,
  secret: string,
  now = Math.floor(Date.now() / 1000),
): VerifyResult {
  const sig = query.get("sig");
  const expires = Number(query.get("expires"));
  if (!sig || !Number.isInteger(expires)) return { ok: false, reason: "missing" };
  if (method !== "GET" && method !== "PUT" && method !== "HEAD") return { ok: false, reason: "bad_signature" };
  const params: SignedParams = {
    method: method === "HEAD" ? "GET" : method,
    key,
    expires,
    max: query.has("max") ? Number(query.get("max")) : undefined,
    expect: query.get("expect") ?? undefined,
    name: query.get("name") ?? undefined,
  };
  const expected = Buffer.from(sign(params, secret));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: "bad_signature" };
  }
  if (expires < now) return { ok: false, reason: "expired" };
  return { ok: true, params };
}
