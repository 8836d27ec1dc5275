import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { z, type ZodTypeAny } from "zod";
import type { User } from "~/db.server";
import { env } from "~/env.server";
import { AppError } from "~/lib/errors";
import { getApiUser } from "~/auth/require-user.server";
import { readJsonBody } from "~/lib/json-body.server";
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
    /** The client's address as server.ts read it (a configured proxy's X-Forwarded-For only); null outside it. */
    clientAddress: string | null;
  }) => Promise<unknown>;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Handler = (request: Request, params: Record<string, string | undefined>, context: AppLoadContext) => Promise<Response>;

function describeIssues(where: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.join(".");
      return field ? `${field} ${issue.message}` : `${where}: ${issue.message}`;
    })
    .join("; ");
}

/** The body parsed by the one JSON reader (size and depth limits), held to the one text rule. */
async function readApiBody(request: Request): Promise<unknown> {
  const parsed = await readJsonBody(request, { maxBytes: env().MAX_JSON_BYTES });
  if (parsed !== undefined) refuseUnsafeText(parsed, "body");
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
  return async (request, rawParams, context) => {
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
        const raw = await readApiBody(request);
        if (raw === undefined) throw new AppError("invalid_input", "A JSON request body is required.");
        body = parseWith(definition.body, raw, "body");
      }
      const result = await definition.handler({
        user: user as never,
        params,
        query,
        body: body as z.infer<B>,
        request,
        clientAddress: context.clientAddress ?? null,
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
  const dispatch = ({ request, params, context }: LoaderFunctionArgs | ActionFunctionArgs) => {
    const handler = handlers[request.method.toUpperCase() as Method];
    if (!handler) {
      return apiError(405, "method_not_allowed", `Use one of: ${allowed}.`, { headers: { Allow: allowed } });
    }
    // Signed storage URLs made while handling it point at the allowed origin it came to (docs/decisions/039).
    return withRequestOrigin(context?.linkOrigin, () => handler(request, params, context ?? {}));
  };
  return { loader: dispatch, action: dispatch };
}
