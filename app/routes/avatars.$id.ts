import { methodNotAllowed } from "~/lib/method-not-allowed.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorToResponse } from "~/api/respond.server";
import { serveAvatar } from "~/domain/account.server";
import { uuidSchema } from "~/domain/schemas";

// GET /avatars/{userId}?v={version} — a user's avatar image, served from our storage.
export async function loader({ request, params }: LoaderFunctionArgs) {
  if (!uuidSchema.safeParse(params.id).success) return new Response("Not found", { status: 404 });
  try {
    return await serveAvatar({ userId: params.id!, request });
  } catch (error) {
    return errorToResponse(error, request);
  }
}

export const action = methodNotAllowed(["GET"]);
