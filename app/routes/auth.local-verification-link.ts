import { methodNotAllowed } from "~/lib/method-not-allowed.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiData, apiError } from "~/api/respond.server";
import { env } from "~/env.server";

const querySchema = z.object({ email: z.string().email() });

/**
 * Local profile only: the Auth emulator sends no email, so the site shows the verification link the
 * emulator recorded. Refused in production and whenever no emulator is configured.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const e = env();
  if (e.isProduction || !e.FIREBASE_AUTH_EMULATOR_HOST) return apiError(404, "not_found", "Not available.");
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return apiError(400, "invalid_input", "email must be an email address");
  const response = await fetch(
    `http://${e.FIREBASE_AUTH_EMULATOR_HOST}/emulator/v1/projects/${e.FIREBASE_PROJECT_ID}/oobCodes`,
  );
  const body = (await response.json()) as { oobCodes?: Array<{ email: string; requestType: string; oobLink: string }> };
  const codes = (body.oobCodes ?? []).filter(
    (c) => c.email.toLowerCase() === parsed.data.email.toLowerCase() && c.requestType === "VERIFY_EMAIL",
  );
  return apiData({ link: codes.at(-1)?.oobLink ?? null });
}

export const action = methodNotAllowed(["GET"]);
