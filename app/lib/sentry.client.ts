import * as Sentry from "@sentry/remix";
import type { PublicEnv } from "~/env.server";

/** Browser error reporting (SPEC §7): off without a DSN; traces 0.2, replays 0.1, 1.0 on error. */
export function initClientSentry() {
  const env = (window as unknown as { __SCANROOM_ENV__?: PublicEnv }).__SCANROOM_ENV__;
  if (!env?.sentryDsn) return;
  Sentry.init({
    dsn: env.sentryDsn,
    environment: env.sentryEnvironment,
    tracesSampleRate: 0.2,
    replaysSessionSampleRate: 0.1,
    replaysOnErrorSampleRate: 1.0,
    integrations: [Sentry.replayIntegration()],
  });
}
