import { methodNotAllowed } from "~/lib/method-not-allowed.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiData, apiError } from "~/api/respond.server";
import { env } from "~/env.server";

const querySchema = z.object({ email: z.string().email(), purpose: z.enum(["verify", "reset", "change"]).default("verify") });
const REQUEST_TYPES = { verify: "VERIFY_EMAIL", reset: "PASSWORD_RESET", change: "VERIFY_AND_CHANGE_EMAIL" } as const;

/**
 * Local profile only: the Auth emulator sends no email, so the site shows the link the emulator recorded
 * for the address — email verification, (purpose=change) the confirmation of a new address, sent to that new
 * address, or (purpose=reset) the password reset, as our own /auth page's reset form (what Firebase's action URL
 * points at). Refused in production and without an emulator.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const e = env();
  if (e.isProduction || !e.FIREBASE_AUTH_EMULATOR_HOST) return apiError(404, "not_found", "Not available.");
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return apiError(400, "invalid_input", "email must be an email address and purpose verify, reset or change");
  const response = await fetch(
    `http://${e.FIREBASE_AUTH_EMULATOR_HOST}/emulator/v1/projects/${e.FIREBASE_PROJECT_ID}/oobCodes`,
  );
  const body = (await response.json()) as { oobCodes?: Array<{ email: string; newEmail?: string; requestType: string; oobLink: string }> };
  const wanted = parsed.data.email.toLowerCase();
  const codes = (body.oobCodes ?? []).filter(
    (c) => (parsed.data.purpose === "change" ? c.newEmail ?? c.email : c.email).toLowerCase() === wanted && c.requestType === REQUEST_TYPES[parsed.data.purpose],
  );
  const link = codes.at(-1)?.oobLink ?? null;
  if (!link || parsed.data.purpose !== "reset") return apiData({ link });
  const code = new URL(link).searchParams.get("oobCode");
  return apiData({ link: code ? `/auth?mode=resetPassword&oobCode=${encodeURIComponent(code)}` : null });
}

export const action = methodNotAllowed(["GET"]);
