import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Liquid, Tag, type TagToken, type TopLevelToken, type Liquid as LiquidEngine } from "liquidjs";
import type { ModelMetafieldValue } from "../../app/lib/shopify-model-metafield";

/**
 * Renders the theme app extension's "3D model" block the way a storefront would, with liquidjs and the few
 * Shopify pieces it uses: the `t` filter (the extension's own locale file), `{% schema %}`, the block object and
 * a product whose app-owned metafield holds `metafield`. `productPage` wraps it in a static product page with a
 * theme-like variant picker that updates `?variant=` through the history API, as Dawn does.
 */
export const EXTENSION_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../extensions/scanroom-3d");

const locale = JSON.parse(readFileSync(path.join(EXTENSION_DIR, "locales/en.default.json"), "utf8"));
const schemaSource = readFileSync(path.join(EXTENSION_DIR, "blocks/model-3d.liquid"), "utf8");

/** The block's `{% schema %}` JSON. */
export const blockSchema = JSON.parse(/{% schema %}([\s\S]*?){% endschema %}/.exec(schemaSource)![1]);

function translate(key: string, vars: Record<string, unknown> = {}): string {
  const value = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], locale);
  if (typeof value !== "string") return `translation missing: en.${key}`;
  return value.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => String(vars[name] ?? ""));
}

function createEngine(): LiquidEngine {
  const engine = new Liquid({
    root: [path.join(EXTENSION_DIR, "blocks"), path.join(EXTENSION_DIR, "snippets")],
    extname: ".liquid",
    strictFilters: true,
  });
  engine.registerFilter("t", (key: string, ...args: Array<[string, unknown]>) => translate(key, Object.fromEntries(args)));
  // `{% schema %}` is read by Shopify, not rendered.
  engine.registerTag(
    "schema",
    class extends Tag {
      constructor(token: TagToken, remain: TopLevelToken[], liquid: LiquidEngine) {
        super(token, remain, liquid);
        while (remain.length) {
          const next = remain.shift()!;
          if ((next as TagToken).name === "endschema") return;
        }
        throw new Error("{% schema %} without {% endschema %}");
      }
      render() {
        return "";
      }
    },
  );
  return engine;
}

const engine = createEngine();

export interface SampleVariant {
  id: number;
  title: string;
}

export interface BlockSettings {
  height: number;
  background: string;
  autorotate: boolean;
  show_annotations: boolean;
  button_label: string;
}

export const DEFAULT_SETTINGS: BlockSettings = Object.fromEntries(
  blockSchema.settings.map((setting: { id: string; default?: unknown }) => [setting.id, setting.default ?? ""]),
) as BlockSettings;

export async function renderModelBlock({
  metafield,
  variants,
  selectedVariantId,
  settings = {},
  designMode = false,
}: {
  metafield: ModelMetafieldValue | null;
  variants: SampleVariant[];
  selectedVariantId?: number;
  settings?: Partial<BlockSettings>;
  designMode?: boolean;
}): Promise<string> {
  const selected = variants.find((v) => v.id === selectedVariantId) ?? variants[0];
  const product = {
    id: 1001,
    title: "Sample chair",
    variants,
    selected_or_first_available_variant: selected,
    metafields: { "$app:scanroom": metafield ? { model: { value: metafield } } : {} },
  };
  return engine.renderFile("model-3d", {
    product,
    request: { design_mode: designMode },
    block: { id: "block-1", settings: { ...DEFAULT_SETTINGS, ...settings }, shopify_attributes: 'data-block-id="block-1"' },
  });
}

/**
 * A static product page: the theme's product form (variant picker + hidden `id` field, ?variant= kept in the
 * URL with history.replaceState like Dawn), the block, and the extension's assets where Shopify would inject
 * them. `assetBase` is where assets/scanroom-3d.{js,css} are served from; null gives the same page without the
 * app (no block, none of its assets), for comparisons.
 */
export async function productPage(options: Parameters<typeof renderModelBlock>[0] & { assetBase: string | null }): Promise<string> {
  const block = options.assetBase === null ? "" : await renderModelBlock(options);
  const assets =
    options.assetBase === null
      ? ""
      : `<link rel="stylesheet" href="${options.assetBase}/scanroom-3d.css">
<script src="${options.assetBase}/scanroom-3d.js" defer></script>`;
  const selected = options.variants.find((v) => v.id === options.selectedVariantId) ?? options.variants[0];
  const radios = options.variants
    .map(
      (v) =>
        `<label><input type="radio" name="Option" value="${v.id}" ${v.id === selected.id ? "checked" : ""}> ${v.title}</label>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sample chair – Sample store</title>
${assets}
</head>
<body>
<main>
  <h1>Sample chair</h1>
  <p>$120.00</p>
  <form action="/cart/add" method="post" id="product-form">
    <fieldset><legend>Colour</legend>
${radios}
    </fieldset>
    <input type="hidden" name="id" value="${selected.id}">
    <button type="submit">Add to cart</button>
  </form>
  ${block}
  <p>A sturdy chair.</p>
</main>
<script>
  // What a theme like Dawn does on a variant change: update the form's id and the URL (no reload).
  document.getElementById("product-form").addEventListener("change", function (event) {
    if (event.target.name !== "Option") return;
    this.querySelector('[name="id"]').value = event.target.value;
    var url = new URL(location.href);
    url.searchParams.set("variant", event.target.value);
    history.replaceState({}, "", url.toString());
  });
</script>
</body>
</html>`;
}
