import * as Sentry from "@sentry/remix";
import { AppError, isAppError } from "~/domain/errors";
import { logger } from "~/lib/logger.server";

/** The one place API results and errors take their shape (SPEC §7, §8). */
export function apiData(data: unknown, init?: ResponseInit): Response {
  return jsonResponse({ status: 200, data }, 200, init);
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
