import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";

/**
 * The splat editor's token (SPEC §7 GET /supersplat/jwt; docs/editor-token.md): a compact JWT,
 * HS256, that lets the editor load and save one item's splats for one user for a short while. Pure:
 * the secret, issuer and clock are passed in (editor-token.server.ts binds them to the environment).
 */
export const EDITOR_TOKEN_AUDIENCE = "scanroom-editor";
export const EDITOR_TOKEN_SECONDS = 15 * 60;
/** Seconds of clock difference tolerated on `iat`. */
const CLOCK_SKEW_SECONDS = 60;

export interface EditorTokenClaims {
  iss: string;
  aud: typeof EDITOR_TOKEN_AUDIENCE;
  /** The user's id. */
  sub: string;
  /** The item the editor has open; absent for a token asked for without one (it opens no item). */
  item_id?: string;
  iat: number;
  exp: number;
  jti: string;
}

export type EditorTokenProblem = "malformed" | "bad_signature" | "expired" | "not_yet_valid" | "wrong_audience" | "wrong_issuer";

export type EditorTokenCheck = { ok: true; claims: EditorTokenClaims } | { ok: false; problem: EditorTokenProblem };

const HEADER = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));

function base64url(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

function signature(input: string, secret: string): Buffer {
  return createHmac("sha256", secret).update(input).digest();
}

export function signEditorToken(input: {
  secret: string;
  issuer: string;
  userId: string;
  itemId?: string;
  /** Unix seconds; default now. */
  now?: number;
  ttlSeconds?: number;
}): { token: string; claims: EditorTokenClaims } {
  const iat = input.now ?? Math.floor(Date.now() / 1000);
  const claims: EditorTokenClaims = {
    iss: input.issuer,
    aud: EDITOR_TOKEN_AUDIENCE,
    sub: input.userId,
    ...(input.itemId ? { item_id: input.itemId } : {}),
    iat,
    exp: iat + (input.ttlSeconds ?? EDITOR_TOKEN_SECONDS),
    jti: randomUUID(),
  };
  const body = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return { token: `${body}.${signature(body, input.secret).toString("base64url")}`, claims };
}

function parseJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  } catch {
    return null;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Checks a token's form, signature (constant time), algorithm, audience, issuer and lifetime. */
export function verifyEditorToken(token: string, options: { secret: string; issuer: string; now?: number }): EditorTokenCheck {
  const parts = token.split(".");
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part))) return { ok: false, problem: "malformed" };
  const [header, payload, sent] = parts;
  const expected = signature(`${header}.${payload}`, options.secret);
  const given = Buffer.from(sent, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, problem: "bad_signature" };
  const head = parseJson(header);
  const claims = parseJson(payload);
  // The algorithm is fixed: a header naming another ("none", RS256) is refused even with a valid HMAC.
  if (!isRecord(head) || head.alg !== "HS256" || !isRecord(claims)) return { ok: false, problem: "malformed" };
  const { iss, aud, sub, item_id: itemId, iat, exp, jti } = claims;
  if (
    typeof sub !== "string" ||
    typeof iat !== "number" ||
    typeof exp !== "number" ||
    typeof jti !== "string" ||
    (itemId !== undefined && typeof itemId !== "string")
  ) {
    return { ok: false, problem: "malformed" };
  }
  if (aud !== EDITOR_TOKEN_AUDIENCE) return { ok: false, problem: "wrong_audience" };
  if (iss !== options.issuer) return { ok: false, problem: "wrong_issuer" };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (now >= exp) return { ok: false, problem: "expired" };
  if (iat > now + CLOCK_SKEW_SECONDS) return { ok: false, problem: "not_yet_valid" };
  return { ok: true, claims: claims as unknown as EditorTokenClaims };
}
