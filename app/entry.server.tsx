import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { webStreamOf } from "./lib/web-stream.server";
import { RemixServer } from "@remix-run/react";
import * as Sentry from "@sentry/remix";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { env } from "./env.server";
import { initServerSentry } from "./lib/sentry.server";
import { logger } from "./lib/logger.server";
import { isAppError } from "./domain/errors";
import { addShopifyDocumentHeaders } from "./shopify.server";

function isShopifyAdminPath(pathname: string) {
  return pathname === "/app" || pathname.startsWith("/app/") || pathname.startsWith("/shopify/");
}

// Validate configuration at boot: a bad environment stops the server with a message naming each problem.
env();
initServerSentry();

const ABORT_DELAY = 5_000;

export const handleError = (error: unknown, { request }: { request: Request }) => {
  if (request.signal.aborted || isAppError(error) || error instanceof Response) return;
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
  if (isShopifyAdminPath(pathname)) {
    // Only the Shopify admin's frame may embed these pages (DESIGN §4); the library sets the shop's
    // frame-ancestors when the URL names a valid shop.
    responseHeaders.set("Content-Security-Policy", "frame-ancestors https://admin.shopify.com https://*.myshopify.com");
    addShopifyDocumentHeaders(request, responseHeaders);
  } else if (pathname.startsWith("/embed/")) {
    // /embed/{id} is framable by any site (storefronts, blogs, CMSs), said explicitly so no default tightens it.
    responseHeaders.set("Content-Security-Policy", "frame-ancestors *");
    responseHeaders.delete("X-Frame-Options");
  } else if (!responseHeaders.has("X-Frame-Options")) {
    // The site itself is not framable.
    responseHeaders.set("Content-Security-Policy", "frame-ancestors 'self'");
  }
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />,
      {
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
