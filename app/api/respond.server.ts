import { createHash } from "node:crypto";
import * as Sentry from "@sentry/remix";
import { AppError, isAppError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";

/** The one place API results and errors take their shape (SPEC §7, §8). */
export function apiData(data: unknown, init?: ResponseInit): Response {
  return jsonResponse({ status: 200, data }, 200, init);
}

/**
 * A 200 answer that clients and caches may keep: a weak ETag of the body, and 304 without a body when the
 * request's If-None-Match names it (so a second view downloads nothing new).
 */
export function apiDataCached(request: Request, data: unknown, { cacheControl }: { cacheControl: string }): Response {
  const body = JSON.stringify({ status: 200, data }, (_k, v) => (typeof v === "bigint" ? Number(v) : v));
  const etag = `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  const headers = new Headers({ ETag: etag, "Cache-Control": cacheControl, Vary: "Authorization" });
  const match = request.headers.get("If-None-Match");
  if (match && match.split(",").some((tag) => tag.trim() === etag || tag.trim() === "*")) return new Response(null, { status: 304, headers });
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(body, { status: 200, headers });
}

export function apiError(status: number, error: string, message: string, init?: ResponseInit): Response {
  return jsonResponse({ status, error, message }, status, init);
}

function jsonResponse(body: unknown, status: number, init?: ResponseInit): Response {
  const headers = new Headers(init?.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body, (_k, v) => (typeof v === "bigint" ? Number(v) : v)), {
    ...init,
    status,
    headers,
  });
}

/** Maps any thrown value to the API's error shape; unexpected errors go to Sentry and the log. */
export function errorToResponse(error: unknown, request: Request): Response {
  if (error instanceof Response) return error;
  if (isAppError(error)) return apiError(error.status, error.code, error.message);
  Sentry.captureException(error);
  logger.error("unhandled API error", { path: new URL(request.url).pathname, error });
  const internal = new AppError("internal_error", "Something went wrong on our side. Please try again.");
  return apiError(internal.status, internal.code, internal.message);
}
