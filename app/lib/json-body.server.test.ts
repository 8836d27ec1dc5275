import { describe, expect, it } from "vitest";
import { AppError } from "~/lib/errors";
import { readJsonBody, readJsonText } from "./json-body.server";
import { MAX_JSON_DEPTH } from "./json-depth";

const post = (body: string, type = "application/json") =>
  new Request("http://127.0.0.1/v1/item", { method: "POST", headers: { "Content-Type": type }, body });

/** The error code and status a read ends in, or "ok". */
async function outcomeOf(read: Promise<unknown>): Promise<string> {
  try {
    await read;
    return "ok";
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.code}`;
    throw error;
  }
}

describe("readJsonBody", () => {
  it("parses a body within the limits", async () => {
    expect(await readJsonBody(post('{"name":"chair","tags":[["a"]]}'), { maxBytes: 1024 })).toEqual({ name: "chair", tags: [["a"]] });
    expect(await readJsonBody(new Request("http://127.0.0.1/", { method: "POST" }), { maxBytes: 1024 })).toBeUndefined();
  });

  it("refuses a body nested deeper than the limit with 400 json_too_deep, arrays and objects alike", async () => {
    const arrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    const objects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
    for (const nested of [arrays, objects]) {
      expect(await outcomeOf(readJsonBody(post(nested(MAX_JSON_DEPTH)), { maxBytes: 1 << 20 }))).toBe("ok");
      expect(await outcomeOf(readJsonBody(post(nested(MAX_JSON_DEPTH + 1)), { maxBytes: 1 << 20 }))).toBe("400 json_too_deep");
      expect(await outcomeOf(readJsonBody(post(nested(20_000)), { maxBytes: 1 << 20 }))).toBe("400 json_too_deep");
    }
  });

  it("refuses a body over the size limit with 413, and other bodies as before", async () => {
    expect(await outcomeOf(readJsonBody(post(`"${"x".repeat(2000)}"`), { maxBytes: 1024 }))).toBe("413 payload_too_large");
    expect(await outcomeOf(readJsonBody(post("{nope"), { maxBytes: 1024 }))).toBe("400 invalid_json");
    expect(await outcomeOf(readJsonBody(post("{}", "text/plain"), { maxBytes: 1024 }))).toBe("415 unsupported_media_type");
  });
});

describe("readJsonText", () => {
  it("answers the raw text (for signatures) after the same checks", async () => {
    const text = '{ "id" : 12345678901234567890 }';
    expect(await readJsonText(post(text), { maxBytes: 1024 })).toBe(text);
    expect(await outcomeOf(readJsonText(post("[".repeat(100)), { maxBytes: 1024 }))).toBe("400 json_too_deep");
  });
});
