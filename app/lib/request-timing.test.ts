import { describe, expect, it } from "vitest";
import { readRequestTiming } from "./request-timing";

const origin = "https://scanroom.test";

describe("readRequestTiming", () => {
  it("reads the request id and server time of pages, page data and API calls", () => {
    const serverTiming = [
      { name: "app", duration: 12.5, description: "" },
      { name: "request", duration: 0, description: "4b0c1f7e-8f5e-4c57-9d0a-2f1c3b8d9e10" },
    ];
    expect(readRequestTiming({ name: `${origin}/pricing`, entryType: "navigation", startTime: 0, duration: 80.04, serverTiming }, origin)).toEqual({
      kind: "page",
      path: "/pricing",
      requestId: "4b0c1f7e-8f5e-4c57-9d0a-2f1c3b8d9e10",
      serverMs: 12.5,
      totalMs: 80,
      startTime: 0,
    });
    expect(readRequestTiming({ name: `${origin}/admin?_data=routes%2Fadmin`, entryType: "resource", startTime: 5, duration: 9, serverTiming }, origin)?.kind).toBe("data");
    expect(readRequestTiming({ name: `${origin}/v1/user/quotas`, entryType: "resource", startTime: 5, duration: 9, serverTiming }, origin)?.kind).toBe("api");
  });

  it("ignores other origins and static files, and copes without Server-Timing", () => {
    expect(readRequestTiming({ name: "https://cdn.test/v1/x", entryType: "resource", startTime: 0, duration: 1 }, origin)).toBeNull();
    expect(readRequestTiming({ name: `${origin}/assets/app.js`, entryType: "resource", startTime: 0, duration: 1 }, origin)).toBeNull();
    expect(readRequestTiming({ name: `${origin}/v1/announcements`, entryType: "resource", startTime: 0, duration: 1 }, origin)).toMatchObject({
      requestId: null,
      serverMs: null,
    });
  });
});
