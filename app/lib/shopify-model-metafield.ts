/**
 * The app-owned product metafield (`$app:scanroom` / `model`, type json) that the theme block reads in
 * Liquid (extensions/scanroom-3d). Pure, so the admin, the webhooks and the storefront tests build the same
 * value. Version 1:
 *
 *   { "v": 1, "origin": "https://scanroom.app",
 *     "product": { "id": "<item uuid>", "name": "Chair", "poster": "https://…/thumbnail?v=…" } | null,
 *     "variants": { "<numeric variant id>": { …same entry… } } }
 *
 * Variant keys are the numeric ids Liquid's `variant.id` prints; the block shows the selected variant's
 * entry, else the product's.
 */
export const MODEL_METAFIELD = { namespace: "$app:scanroom", key: "model", type: "json" } as const;

export interface ModelEntry {
  id: string;
  name: string;
  poster: string | null;
}

export interface ModelMetafieldValue {
  v: 1;
  origin: string;
  product: ModelEntry | null;
  variants: Record<string, ModelEntry>;
}

export interface LinkForMetafield {
  variantGid: string; // "" = the whole product
  item: { id: string; name: string; thumbnailKey: string | null };
}

/** The numeric id at the end of a Shopify GID (`gid://shopify/ProductVariant/42` → "42"). */
export function legacyId(gid: string): string {
  const match = /\/(\d+)$/.exec(gid);
  if (!match) throw new Error(`not a Shopify GID: ${gid}`);
  return match[1];
}

/** The poster: the item's thumbnail, versioned like the API's thumbnail_url so a new image is not cached away. */
export function posterUrl(origin: string, item: LinkForMetafield["item"]): string | null {
  if (!item.thumbnailKey) return null;
  const version = item.thumbnailKey.split("/").pop() ?? "";
  return new URL(`/v1/item/${item.id}/thumbnail?v=${encodeURIComponent(version)}`, origin).toString();
}

/** The metafield value for one product's links, or null when it has none (the metafield is then deleted). */
export function buildModelMetafield(links: LinkForMetafield[], origin: string): ModelMetafieldValue | null {
  if (links.length === 0) return null;
  const cleanOrigin = new URL(origin).origin;
  const entry = (link: LinkForMetafield): ModelEntry => ({
    id: link.item.id,
    name: link.item.name,
    poster: posterUrl(cleanOrigin, link.item),
  });
  const whole = links.find((link) => link.variantGid === "");
  const variants: Record<string, ModelEntry> = {};
  for (const link of links) {
    if (link.variantGid !== "") variants[legacyId(link.variantGid)] = entry(link);
  }
  return { v: 1, origin: cleanOrigin, product: whole ? entry(whole) : null, variants };
}
