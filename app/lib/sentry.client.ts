import type { PublicEnv } from "~/env.server";

type SentryModule = typeof import("@sentry/remix");

/** Set once initClientSentry() found a DSN: @sentry/remix, loaded as its own chunk after the page's scripts. */
let sentry: Promise<SentryModule> | null = null;

/**
 * Browser error reporting (SPEC §7): off without a DSN, and then @sentry/remix (~200 kB of JavaScript) is never
 * downloaded; with one it loads beside the page instead of before it (issue 20, docs/decisions/029): traces 0.2
 * (page loads), replays 0.1, 1.0 on error. Boundary errors shown before it has loaded are reported once it has.
 */
export function initClientSentry(): void {
  const env = (window as unknown as { __SCANROOM_ENV__?: PublicEnv }).__SCANROOM_ENV__;
  const dsn = env?.sentryDsn;
  if (!env || !dsn || sentry) return;
  sentry = import("@sentry/remix").then((Sentry) => {
    Sentry.init({
      dsn,
      environment: env.sentryEnvironment,
      tracesSampleRate: 0.2,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1.0,
      integrations: [Sentry.browserTracingIntegration({}), Sentry.replayIntegration()],
    });
    return Sentry;
  });
  sentry.catch(() => undefined); // a blocked or failed download leaves error reporting off
}

/** Reports an error shown by a route's ErrorBoundary (client-side errors only; the server reports its own). */
export function reportBoundaryError(error: unknown): void {
  if (typeof document === "undefined" || !sentry) return;
  sentry.then((Sentry) => Sentry.captureRemixErrorBoundaryError(error)).catch(() => undefined);
}

/** Reports an error the page recovered from (a failed session restore, say); off without a DSN. */
export function reportClientError(error: unknown): void {
  if (typeof document === "undefined" || !sentry) return;
  sentry.then((Sentry) => Sentry.captureException(error)).catch(() => undefined);
}
