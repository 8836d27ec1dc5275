import { z } from "zod";
import { env } from "~/env.server";
import { AppError } from "~/lib/errors";
import { logger } from "./logger.server";

/**
 * reCAPTCHA (SPEC §7 third parties: v2 and v3, loaded with a site key). Only when a v3 site key is
 * configured: the browser sends a v3 token; when Google scores it as likely automated (or the v3
 * script could not run) and a v2 key pair is configured, we ask for the v2 checkbox instead.
 * Verification is a call to Google's siteverify endpoint (RECAPTCHA_VERIFY_URL, faked in tests).
 */
export const CAPTCHA_ACTION = "contact";

export interface CaptchaConfig {
  v3SiteKey: string;
  v2SiteKey: string | null;
}

/** What the browser needs to show the captcha, or null when no captcha is configured. */
export function captchaConfig(): CaptchaConfig | null {
  const e = env();
  if (!e.RECAPTCHA_SITE_KEY || !e.RECAPTCHA_SECRET_KEY) return null;
  const v2 = e.RECAPTCHA_V2_SITE_KEY && e.RECAPTCHA_V2_SECRET_KEY ? e.RECAPTCHA_V2_SITE_KEY : null;
  return { v3SiteKey: e.RECAPTCHA_SITE_KEY, v2SiteKey: v2 };
}

const siteVerifySchema = z.object({
  success: z.boolean(),
  score: z.number().optional(),
  action: z.string().optional(),
  "error-codes": z.array(z.string()).optional(),
});

async function siteVerify(secret: string, token: string, remoteIp: string | null) {
  const form = new URLSearchParams({ secret, response: token });
  if (remoteIp) form.set("remoteip", remoteIp);
  try {
    const response = await fetch(env().RECAPTCHA_VERIFY_URL, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
    const parsed = siteVerifySchema.safeParse(await response.json());
    if (!response.ok || !parsed.success) throw new Error(`siteverify answered ${response.status}`);
    return parsed.data;
  } catch (error) {
    logger.warn("captcha verification unavailable", { error });
    throw new AppError("captcha_failed", "We could not check the captcha right now. Please try again in a moment.");
  }
}

function needV2OrFail(config: CaptchaConfig): never {
  if (config.v2SiteKey) throw new AppError("captcha_required", "Please confirm that you are not a robot.");
  throw new AppError("captcha_failed", "We could not verify that you are human. Please try again later.");
}

/** Throws unless the token proves a human (or no captcha is configured). */
export async function verifyCaptcha(input: { token?: string; version?: "v2" | "v3"; remoteIp: string | null }) {
  const config = captchaConfig();
  if (!config) return;
  const e = env();
  if (input.version === "v2" && config.v2SiteKey) {
    if (!input.token) needV2OrFail(config);
    const result = await siteVerify(e.RECAPTCHA_V2_SECRET_KEY!, input.token!, input.remoteIp);
    if (!result.success) throw new AppError("captcha_required", "The captcha was not solved. Please try again.");
    return;
  }
  if (!input.token) needV2OrFail(config);
  const result = await siteVerify(e.RECAPTCHA_SECRET_KEY!, input.token!, input.remoteIp);
  const human = result.success && (result.score ?? 0) >= e.RECAPTCHA_MIN_SCORE && (!result.action || result.action === CAPTCHA_ACTION);
  if (!human) needV2OrFail(config);
}
