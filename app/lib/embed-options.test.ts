import { describe, expect, it } from "vitest";
import { embedQuery, parseEmbedOptions } from "./embed-options";

const parse = (query: string) => parseEmbedOptions(new URLSearchParams(query));
const EMBED_ID = "0b0e5bd2-3a4c-4c55-9d8e-2f5a7d1c9e10";

describe("parseEmbedOptions", () => {
  it("reads what the Shopify theme block sends", () => {
    expect(parse("autorotate=1&annotations=0&background=%23F4F4F5")).toEqual({
      autorotate: true,
      annotations: false,
      background: "#f4f4f5",
      embedId: null,
    });
  });

  it("leaves absent or malformed options to the item's settings", () => {
    expect(parse("")).toEqual({ autorotate: null, annotations: true, background: null, embedId: null });
    expect(parse("autorotate=maybe&annotations=&background=red&embed_id=../../x")).toEqual({
      autorotate: null,
      annotations: true,
      background: null,
      embedId: null,
    });
    expect(parse("background=%23123456%22%3E%3Cscript%3E").background).toBeNull();
  });

  it("accepts true/false spelled out and a registered embed id", () => {
    expect(parse(`autorotate=false&annotations=TRUE&embed_id=${EMBED_ID}`)).toMatchObject({
      autorotate: false,
      annotations: true,
      embedId: EMBED_ID,
    });
  });
});

describe("embedQuery", () => {
  it("writes only options that change something, and reads back the same", () => {
    expect(embedQuery({})).toBe("");
    expect(embedQuery({ autorotate: null, annotations: true, background: null })).toBe("");
    const query = embedQuery({ autorotate: false, annotations: false, background: "#000000", embedId: EMBED_ID });
    expect(query).toBe(`?autorotate=0&annotations=0&background=%23000000&embed_id=${EMBED_ID}`);
    expect(parse(query.slice(1))).toEqual({ autorotate: false, annotations: false, background: "#000000", embedId: EMBED_ID });
  });
});
