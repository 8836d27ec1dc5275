import { describe, expect, it } from "vitest";
import { CSV_MAX_ROWS, parseLinkCsv } from "./shopify-link-csv";

const A = "0b8f2c9e-8a51-4b1e-9a0d-3f0c7d2b9e11";
const B = "7c1d2e3f-4a5b-4c6d-8e7f-901234567890";

describe("parseLinkCsv", () => {
  it("reads handle,model_id[,variant_id] lines, skipping a header, comments and blank lines", () => {
    const csv = `handle,model_id,variant_id\n# chairs\n\noak-chair,${A}\r\n"red-lamp", ${B.toUpperCase()} ,4455\nblue-lamp,${B},gid://shopify/ProductVariant/77\n`;
    expect(parseLinkCsv(csv)).toEqual({
      rows: [
        { line: 4, handle: "oak-chair", itemId: A, variantGid: "" },
        { line: 5, handle: "red-lamp", itemId: B, variantGid: "gid://shopify/ProductVariant/4455" },
        { line: 6, handle: "blue-lamp", itemId: B, variantGid: "gid://shopify/ProductVariant/77" },
      ],
      problems: [],
    });
  });

  it("reports each bad line by number and keeps the good ones", () => {
    const csv = [`Oak Chair,${A}`, `oak-chair,not-a-uuid`, `oak-chair,${A},red`, `oak-chair,${A},1,extra`, `ok-chair,${A}`].join("\n");
    const { rows, problems } = parseLinkCsv(csv);
    expect(rows.map((r) => r.line)).toEqual([5]);
    expect(problems).toEqual([
      { line: 1, message: '"Oak Chair" is not a product handle.' },
      { line: 2, message: '"not-a-uuid" is not a model id.' },
      { line: 3, message: '"red" is not a variant id.' },
      { line: 4, message: "Expected handle,model_id[,variant_id]." },
    ]);
  });

  it(`refuses more than ${CSV_MAX_ROWS} links at once`, () => {
    const csv = Array.from({ length: CSV_MAX_ROWS + 1 }, (_, i) => `product-${i},${A}`).join("\n");
    expect(parseLinkCsv(csv)).toEqual({ rows: [], problems: [{ line: 0, message: `At most ${CSV_MAX_ROWS} links per file (found ${CSV_MAX_ROWS + 1}).` }] });
  });
});
