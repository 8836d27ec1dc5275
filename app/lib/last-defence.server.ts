import type { Server } from "node:http";
import * as Sentry from "@sentry/remix";
import type { NextFunction, Request, Response } from "express";
import { logger } from "./logger.server";

/**
 * The server's last line of defence (docs/decisions/021-request-errors-and-supervision.md).
 *
 * 1. An error that escapes one request's handling (Express/Remix pass it to `next(error)`) is
 *    logged, reported, and answered with a 500 in the API's shape when headers were not sent yet;
 *    otherwise that one response is cut off. The process keeps serving everyone else.
 * 2. An exception nobody caught anywhere (an 'error' event without a listener, a throw in a timer)
 *    leaves the process in an unknown state: it is logged and reported, the server stops taking
 *    new connections, requests in flight get a few seconds, and the process exits with status 1 so
 *    the supervisor (scripts/start.mjs, or the process manager in production) starts a fresh one.
 *    We never swallow it and carry on.
 * 3. A rejected promise nobody awaited is logged and reported, and the process keeps running: it
 *    is a bug in one code path, and nothing was left half-done by a throw in the middle of a stack.
 */
export function requestErrorHandler(error: unknown, req: Request, res: Response, next: NextFunction) {
  void next;
  logger.error("unexpected error in a request", { method: req.method, path: req.path, error });
  Sentry.captureException(error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(500).json({ status: 500, error: "internal_error", message: "Something went wrong on our side. Please try again." });
}

export function installProcessGuards(server: Server, { drainMs = 5_000 } = {}) {
  let failing = false;
  process.on("unhandledRejection", (reason) => {
    logger.error("unhandled promise rejection (process keeps running)", { error: reason });
    Sentry.captureException(reason);
  });
  process.on("uncaughtException", (error) => {
    logger.error("uncaught exception: the process state is unknown, exiting for a clean restart", { error });
    Sentry.captureException(error);
    if (failing) return;
    failing = true;
    server.close();
    server.closeIdleConnections();
    void Sentry.flush(2_000)
      .catch(() => false)
      .finally(() => setTimeout(() => process.exit(1), drainMs).unref());
    // Never wait longer than the drain for anything else.
    setTimeout(() => process.exit(1), drainMs + 2_500).unref();
  });
}
