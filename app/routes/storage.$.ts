import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, errorToResponse } from "~/api/respond.server";
import { env } from "~/env.server";
import { drainBody } from "~/lib/drain-body.server";
import { DECLARED_MODEL_TYPES, type DeclaredModelType } from "~/formats/model-format";
import { localStorageDriver } from "~/storage/index.server";
import { isSafeKey } from "~/storage/keys";
import { receiveUpload } from "~/storage/receive-upload.server";
import { serveStoredObject } from "~/storage/serve-object.server";
import { verifySigned } from "~/storage/signing.server";

// The local-disk driver's signed URLs (SPEC `PUT {signed url}`): PUT stores, GET/HEAD serve.
function authorize(request: Request, splat: string | undefined) {
  const store = localStorageDriver();
  if (!store) return { error: apiError(404, "not_found", "Not found.") } as const;
  const key = decodeURIComponent(splat ?? "");
  if (!isSafeKey(key)) return { error: apiError(404, "not_found", "Not found.") } as const;
  const check = verifySigned(request.method, key, new URL(request.url).searchParams, env().STORAGE_SIGNING_SECRET);
  if (!check.ok) {
    const message = check.reason === "expired" ? "This link has expired." : "This link is not valid.";
    return { error: apiError(403, "invalid_signature", message) } as const;
  }
  return { store, key, params: check.params } as const;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const auth = authorize(request, params["*"]);
  if ("error" in auth) return auth.error;
  const served = await serveStoredObject({
    store: auth.store,
    key: auth.key,
    request,
    headers: { "Content-Type": "application/octet-stream", "Cache-Control": "private, max-age=3600" },
    downloadName: auth.params.name,
  });
  return served ?? apiError(404, "not_found", "Not found.");
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PUT") return apiError(405, "method_not_allowed", "Use PUT.", { headers: { Allow: "PUT" } });
  const auth = authorize(request, params["*"]);
  if ("error" in auth) {
    await drainBody(request.body);
    return auth.error;
  }
  const expect = auth.params.expect;
  try {
    const size = await receiveUpload({
      store: auth.store,
      key: auth.key,
      body: request.body,
      maxBytes: auth.params.max,
      expect: DECLARED_MODEL_TYPES.includes(expect as DeclaredModelType) ? (expect as DeclaredModelType) : undefined,
    });
    return Response.json({ status: 200, data: { path: auth.key, size } });
  } catch (error) {
    return errorToResponse(error, request);
  }
}
