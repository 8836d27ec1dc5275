import { describe, expect, it } from "vitest";
import { redact } from "./logger.server";

describe("redact", () => {
  it("masks bearer tokens, JWTs and secret-named fields, keeping the rest", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl";
    expect(
      redact({
        path: "/v1/item",
        headers: { authorization: `Bearer ${jwt}` },
        idToken: "abc",
        note: `failed for Bearer ${jwt}`,
        nested: { password: "hunter2", count: 3 },
      }),
    ).toEqual({
      path: "/v1/item",
      headers: { authorization: "[redacted]" },
      idToken: "[redacted]",
      note: "failed for Bearer [redacted]",
      nested: { password: "[redacted]", count: 3 },
    });
    expect(redact(`token ${jwt} here`)).toBe("token [redacted-jwt] here");
  });
});
