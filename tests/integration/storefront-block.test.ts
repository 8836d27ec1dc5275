import { readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { check, Severity } from "@shopify/theme-check-node";
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { buildModelMetafield } from "~/lib/shopify-model-metafield";
import { blockSchema, EXTENSION_DIR, renderModelBlock } from "../setup/storefront";

// The theme app extension on its own: Theme Check, the loader's weight, and the block's Liquid rendered
// with a sample product (tests/setup/storefront.ts). The journey in Chromium is tests/e2e/storefront.spec.ts.

const chair = { id: "0b8f2c9e-8a51-4b1e-9a0d-3f0c7d2b9e11", name: "Oak chair", thumbnailKey: "items/0b8f/thumbnail/v1.png" };
const lamp = { id: "7c1d2e3f-4a5b-4c6d-8e7f-901234567890", name: 'Lamp "</div><script>alert(1)</script>', thumbnailKey: "items/7c1d/thumbnail/v2.png" };
const variants = [
  { id: 4401, title: "Oak" },
  { id: 4402, title: "Walnut" },
];
const metafield = buildModelMetafield(
  [
    { variantGid: "", item: chair },
    { variantGid: "gid://shopify/ProductVariant/4402", item: lamp },
  ],
  "https://scanroom.test",
)!;

function blockOf(html: string) {
  return new JSDOM(html).window.document.querySelector<HTMLElement>("[data-scanroom-3d]");
}

describe("theme app extension", () => {
  it("passes Theme Check (theme app extension rules) with no errors", async () => {
    const offenses = await check(EXTENSION_DIR);
    const errors = offenses.filter((offense) => offense.severity === Severity.ERROR);
    expect(errors.map((o) => `${o.check} ${o.uri}: ${o.message}`)).toEqual([]);
    expect(offenses.map((o) => `${o.check}: ${o.message}`)).toEqual([]); // no warnings either
  });

  it("keeps the loader tiny: under 2 KB gzipped (Theme Check's hard cap is 10,000 bytes)", () => {
    const source = readFileSync(path.join(EXTENSION_DIR, "assets", blockSchema.javascript));
    const gzip = gzipSync(source, { level: 9 }).length;
    const brotli = brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    process.stdout.write(`storefront loader ${blockSchema.javascript}: ${source.length} B raw, ${gzip} B gzip, ${brotli} B brotli\n`);
    expect(source.length).toBeLessThan(10_000);
    expect(gzip).toBeLessThan(2048);
  });

  it("is an app block for product templates with the five settings, each labelled in the schema locale", () => {
    const schemaLocale = JSON.parse(readFileSync(path.join(EXTENSION_DIR, "locales/en.default.schema.json"), "utf8"));
    expect(blockSchema).toMatchObject({ target: "section", enabled_on: { templates: ["product"] } });
    expect(blockSchema.settings.map((s: { id: string }) => s.id)).toEqual(["height", "background", "autorotate", "show_annotations", "button_label"]);
    for (const label of [blockSchema.name, ...blockSchema.settings.map((s: { label: string }) => s.label)]) {
      const key = label.replace(/^t:/, "");
      expect(key.split(".").reduce((node: Record<string, unknown>, part: string) => node?.[part] as Record<string, unknown>, schemaLocale), key).toEqual(
        expect.any(String),
      );
    }
  });
});

describe("the block's Liquid with a sample product", () => {
  it("renders the product's poster at the block's fixed height, with the models for the loader", async () => {
    const block = blockOf(await renderModelBlock({ metafield, variants, settings: { height: 560, background: "#ffeedd" } }))!;
    expect(block.hidden).toBe(false);
    expect(block.getAttribute("style")).toContain("--scanroom-h: 560px");
    expect(block.getAttribute("style")).toContain("--scanroom-bg: #ffeedd");
    expect(block.dataset.model).toBe(chair.id);
    expect(JSON.parse(block.dataset.models!)).toEqual(metafield);
    const img = block.querySelector("img")!;
    expect(img.getAttribute("src")).toBe(`https://scanroom.test/v1/item/${chair.id}/thumbnail?v=v1.png`);
    expect(img.alt).toBe("Oak chair");
    expect(block.querySelector("button")!.textContent).toContain("View in 3D");
    // Nothing heavy before the shopper asks: no iframe, no viewer script.
    expect(block.querySelector("iframe, script")).toBeNull();
  });

  it("without a colour of the merchant's leaves the background to the model's own settings", async () => {
    const block = blockOf(await renderModelBlock({ metafield, variants }))!;
    expect(block.getAttribute("style")).toBe("--scanroom-h: 480px;");
    expect(block.dataset.background).toBe("");
  });

  it("shows the selected variant's own model, escaping what the merchant named it", async () => {
    const html = await renderModelBlock({ metafield, variants, selectedVariantId: 4402, settings: { button_label: "Try it in 3D" } });
    expect(html).not.toContain("<script>alert(1)</script>");
    const block = blockOf(html)!;
    expect(block.dataset.model).toBe(lamp.id);
    expect(block.dataset.variant).toBe("4402");
    expect(block.querySelector("img")!.alt).toBe(lamp.name);
    expect(block.querySelector("button")!.textContent).toContain("Try it in 3D");
    expect(block.dataset.autorotate).toBe("1");
    expect(block.dataset.annotations).toBe("1");
  });

  it("renders nothing for a product without a model, and a hint in the theme editor", async () => {
    expect((await renderModelBlock({ metafield: null, variants })).trim()).toBe("");
    const hint = await renderModelBlock({ metafield: null, variants, designMode: true });
    expect(hint).toContain("No 3D model is attached to this product yet.");
    expect(blockOf(hint)).toBeNull();
  });

  it("starts hidden when only other variants have models, so the loader can reveal it on a variant change", async () => {
    const onlyVariant = buildModelMetafield([{ variantGid: "gid://shopify/ProductVariant/4402", item: lamp }], "https://scanroom.test")!;
    const block = blockOf(await renderModelBlock({ metafield: onlyVariant, variants, selectedVariantId: 4401 }))!;
    expect(block.hidden).toBe(true);
    expect(block.querySelector("img")).toBeNull();
  });
});
