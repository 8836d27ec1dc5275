import * as Sentry from "@sentry/remix";
import { env } from "~/env.server";

let started = false;

/** Server error reporting: off without SENTRY_DSN. Expected AppErrors are never sent (api/respond). */
export function initServerSentry() {
  if (started) return;
  started = true;
  const e = env();
  if (!e.SENTRY_DSN) return;
  Sentry.init({ dsn: e.SENTRY_DSN, environment: e.SENTRY_ENVIRONMENT ?? e.SCANROOM_PROFILE, tracesSampleRate: 0.2 });
}
