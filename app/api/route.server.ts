import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z, type ZodTypeAny } from "zod";
import type { User } from "~/db.server";
import { env } from "~/env.server";
import { AppError } from "~/domain/errors";
import { getApiUser } from "~/auth/require-user.server";
import { drainBody, drainReader } from "~/lib/drain-body.server";
import { withRequestOrigin } from "~/lib/request-origin.server";
import { findUnsafeText, UNSAFE_TEXT_MESSAGE } from "~/lib/safe-text";
import { apiData, apiError, errorToResponse } from "./respond.server";

/**
 * The small /v1 route builder: it owns authentication, zod parsing of params, query and body, and
 * the response shape. Handlers return data (sent as `{status: 200, data}`) or a Response, and throw
 * AppError for expected failures.
 */
type Auth = "none" | "optional" | "required" | "admin";

interface Definition<P extends ZodTypeAny, Q extends ZodTypeAny, B extends ZodTypeAny, A extends Auth> {
  auth: A;
  params?: P;
  query?: Q;
  body?: B;
  handler: (input: {
    user: A extends "required" | "admin" ? User : User | null;
    params: z.infer<P>;
    query: z.infer<Q>;
    body: z.infer<B>;
    request: Request;
  }) => Promise<unknown>;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Handler = (request: Request, params: Record<string, string | undefined>) => Promise<Response>;

function describeIssues(where: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.join(".");
      return field ? `${field} ${issue.message}` : `${where}: ${issue.message}`;
    })
    .join("; ");
}

/** A body over the JSON limit is read and discarded up to this size before the 413 (larger: the connection closes). */
const DRAIN_CAP_BYTES = 8 * 1024 * 1024;

async function readJsonBody(request: Request): Promise<unknown> {
  const limit = env().MAX_JSON_BYTES;
  const tooLarge = () => new AppError("payload_too_large", `The request body is larger than ${limit} bytes.`);
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > limit) {
    // Read the rest (within reason) so the client receives the 413 instead of a reset connection (item 8).
    if (declared <= DRAIN_CAP_BYTES) await drainBody(request.body, DRAIN_CAP_BYTES);
    throw tooLarge();
  }
  const reader = request.body?.getReader();
  if (!reader) return undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      // A chunked body gives no length up front: the same, once past the limit.
      await drainReader(reader, DRAIN_CAP_BYTES);
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (total === 0) return undefined;
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new AppError("unsupported_media_type", "Send the request body as JSON (Content-Type: application/json).");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new AppError("invalid_json", "The request body is not valid JSON.");
  }
  refuseUnsafeText(parsed, "body");
  return parsed;
}

/** The one text rule (issue 17 item 4) for everything the API reads. */
function refuseUnsafeText(value: unknown, where: string): void {
  const at = findUnsafeText(value);
  if (at) throw new AppError("invalid_input", `${where} ${at === "(value)" ? "" : `${JSON.stringify(at.replaceAll("\u0000", ""))} `}${UNSAFE_TEXT_MESSAGE}`);
}

function parseWith<S extends ZodTypeAny>(schema: S | undefined, value: unknown, where: string): z.infer<S> {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError("invalid_input", describeIssues(where, result.error));
  return result.data;
}

export function endpoint<
  A extends Auth,
  P extends ZodTypeAny = z.ZodUndefined,
  Q extends ZodTypeAny = z.ZodUndefined,
  B extends ZodTypeAny = z.ZodUndefined,
>(definition: Definition<P, Q, B, A>): Handler {
  return async (request, rawParams) => {
    try {
      const user = definition.auth === "none" ? null : await getApiUser(request);
      if (!user && (definition.auth === "required" || definition.auth === "admin")) {
        throw new AppError("unauthorized", "Sign in to continue.");
      }
      if (definition.auth === "admin" && !user!.isAdmin) {
        throw new AppError("forbidden", "Only administrators can do this.");
      }
      refuseUnsafeText(rawParams, "path");
      const params = parseWith(definition.params, rawParams, "path");
      // Undefined or empty filters are skipped (SPEC §7).
      const rawQuery = Object.fromEntries([...new URL(request.url).searchParams].filter(([, v]) => v !== "" && v !== "undefined"));
      refuseUnsafeText(rawQuery, "query");
      const query = parseWith(definition.query, rawQuery, "query");
      let body: unknown;
      if (definition.body) {
        const raw = await readJsonBody(request);
        if (raw === undefined) throw new AppError("invalid_input", "A JSON request body is required.");
        body = parseWith(definition.body, raw, "body");
      }
      const result = await definition.handler({
        user: user as never,
        params,
        query,
        body: body as z.infer<B>,
        request,
      });
      return result instanceof Response ? result : apiData(result ?? null);
    } catch (error) {
      return errorToResponse(error, request);
    }
  };
}

/** Binds handlers per HTTP method to a Remix resource route's loader and action. */
export function apiRoute(handlers: Partial<Record<Method, Handler>>) {
  const allowed = Object.keys(handlers).join(", ");
  const dispatch = (request: Request, params: Record<string, string | undefined>) => {
    const handler = handlers[request.method.toUpperCase() as Method];
    if (!handler) {
      return apiError(405, "method_not_allowed", `Use one of: ${allowed}.`, { headers: { Allow: allowed } });
    }
    // Signed storage URLs made while handling it point at the origin it came to (issue 17 item 2).
    return withRequestOrigin(request, () => handler(request, params));
  };
  return {
    loader: ({ request, params }: LoaderFunctionArgs) => dispatch(request, params),
    action: ({ request, params }: ActionFunctionArgs) => dispatch(request, params),
  };
}
