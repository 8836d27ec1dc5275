import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiData, apiError, errorToResponse } from "~/api/respond.server";
import { verifyIdToken } from "~/auth/firebase-admin.server";
import { sessionStorage } from "~/auth/session.server";
import { AppError } from "~/lib/errors";
import { env } from "~/env.server";
import { readJsonBody } from "~/lib/json-body.server";
import { assertUserActive, getOrCreateUserForIdentity } from "~/domain/users.server";

const bodySchema = z.object({ idToken: z.string().min(10).max(8192) });

// POST /session { idToken } opens the site's session after a Firebase sign-in; DELETE closes it.
export async function action({ request }: ActionFunctionArgs) {
  const store = sessionStorage();
  const session = await store.getSession(request.headers.get("Cookie"));
  if (request.method === "DELETE") {
    return apiData({ signed_out: true }, { headers: { "Set-Cookie": await store.destroySession(session) } });
  }
  if (request.method !== "POST") return apiError(405, "method_not_allowed", "Use POST or DELETE.");
  try {
    const parsed = bodySchema.safeParse(await readJsonBody(request, { maxBytes: env().MAX_JSON_BYTES }));
    if (!parsed.success) throw new AppError("invalid_input", "idToken is required.");
    const identity = await verifyIdToken(parsed.data.idToken);
    if (!identity) throw new AppError("unauthorized", "The sign-in token is invalid or expired.");
    // An unverified email is an expected state of sign-in, not a failed request: the site then
    // shows the verification step (SPEC §7 'Email not verified').
    if (identity.email_verified !== true) return apiData({ needs_verification: true, message: "Email not verified" });
    const user = await getOrCreateUserForIdentity(identity);
    assertUserActive(user);
    session.set("userId", user.id);
    return apiData({ user_id: user.id }, { headers: { "Set-Cookie": await store.commitSession(session) } });
  } catch (error) {
    return errorToResponse(error, request);
  }
}

export const loader = () => apiError(405, "method_not_allowed", "Use POST or DELETE.");
