import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { webStreamOf } from "./lib/web-stream.server";
import { RemixServer, isRouteErrorResponse } from "@remix-run/react";
import * as Sentry from "@sentry/remix";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { env } from "./env.server";
import { initServerSentry } from "./lib/sentry.server";
import { logger } from "./lib/logger.server";
import { isAppError } from "./lib/errors";
import { addShopifyDocumentHeaders } from "./shopify.server";
import { contentSecurityPolicy, createNonce, withFrameAncestorsFrom } from "./lib/content-security-policy.server";
import { NonceProvider } from "./lib/nonce-context";

function isShopifyAdminPath(pathname: string) {
  return pathname === "/app" || pathname.startsWith("/app/") || pathname.startsWith("/shopify/");
}

// Validate configuration at boot: a bad environment stops the server with a message naming each problem.
env();
initServerSentry();

const ABORT_DELAY = 5_000;

export const handleError = (error: unknown, { request }: { request: Request }) => {
  if (request.signal.aborted || isAppError(error) || error instanceof Response) return;
  // The framework's own client errors (a method a page has no action for: 405) are the client's, not ours.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  Sentry.captureException(error);
  logger.error("unhandled error", { path: new URL(request.url).pathname, error });
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const { pathname } = new URL(request.url);
  // A full Content-Security-Policy on every page (issue 17, item 14), its frame-ancestors per surface (DESIGN §4).
  const nonce = createNonce();
  if (isShopifyAdminPath(pathname)) {
    // Only the Shopify admin's frame may embed these pages; the library narrows frame-ancestors to the shop
    // when the URL names a valid one, and that narrower rule is kept.
    addShopifyDocumentHeaders(request, responseHeaders);
    const policy = contentSecurityPolicy({ nonce, surface: "shopify", config: env() });
    responseHeaders.set("Content-Security-Policy", withFrameAncestorsFrom(policy, responseHeaders.get("Content-Security-Policy")));
  } else if (pathname.startsWith("/embed/")) {
    // /embed/{id} is framable by any site (storefronts, blogs, CMSs), said explicitly so no default tightens it.
    responseHeaders.set("Content-Security-Policy", contentSecurityPolicy({ nonce, surface: "embed", config: env() }));
    responseHeaders.delete("X-Frame-Options");
  } else {
    // The site itself is not framable (frame-ancestors 'self').
    responseHeaders.set("Content-Security-Policy", contentSecurityPolicy({ nonce, surface: "site", config: env() }));
  }
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          if (!responseHeaders.has("X-Content-Type-Options")) responseHeaders.set("X-Content-Type-Options", "nosniff");
          if (!responseHeaders.has("Referrer-Policy")) responseHeaders.set("Referrer-Policy", "strict-origin-when-cross-origin");
          resolve(
            new Response(webStreamOf(body), { headers: responseHeaders, status: responseStatusCode }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error("render error", { error });
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

// For the server around the build (server.ts): the shared page cache counts the views of the copies it gives
// out, and a clean stop adds the views not yet written, in the same counter as the pages' own.
export { countItemView, flushItemViews } from "~/domain/item-views.server";
