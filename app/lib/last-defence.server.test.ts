import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestErrorHandler } from "./last-defence.server";

// The last line of defence for one request (docs/decisions/021): an error escaping a handler is
// answered 500 in the API's shape, and the server keeps serving.
let base: string;
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.get("/throws", () => {
    throw new Error("a bug in one handler");
  });
  app.get("/fails-mid-body", (_req, res, next) => {
    res.writeHead(200, { "Content-Type": "text/plain" });
    res.write("partial");
    next(new Error("failed after the headers"));
  });
  app.get("/fine", (_req, res) => {
    res.json({ ok: true });
  });
  app.use(requestErrorHandler);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => close());

describe("requestErrorHandler", () => {
  it("answers an escaped error with 500 in the API's shape", async () => {
    const res = await fetch(`${base}/throws`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      status: 500,
      error: "internal_error",
      message: "Something went wrong on our side. Please try again.",
    });
  });

  it("cuts off a response whose headers were already sent, and keeps serving others", async () => {
    // The client sees a failed request, never a truncated body passed off as complete.
    await expect(fetch(`${base}/fails-mid-body`).then((res) => res.text())).rejects.toThrow();
    expect((await fetch(`${base}/fine`)).status).toBe(200);
  });
});
