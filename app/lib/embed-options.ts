/**
 * The display options an embed URL may carry (`/embed/{id}?autorotate=&annotations=&background=&embed_id=`):
 * the Shopify theme block passes the first three (extensions/scanroom-3d/assets/scanroom-3d.js), registered
 * embeds add `embed_id`. Outside input: anything malformed is ignored, never an error page.
 */
export interface EmbedOptions {
  /** null: as the item's viewer settings say. */
  autorotate: boolean | null;
  /** Show the annotation hotspots (default true). */
  annotations: boolean;
  /** A hex colour, or null for the item's setting. */
  background: string | null;
  /** A registered embed (POST /v1/item/{id}/embed), or null for the plain public embed. */
  embedId: string | null;
}

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function flag(value: string | null): boolean | null {
  if (value === null) return null;
  const v = value.trim().toLowerCase();
  if (v === "1" || v === "true") return true;
  if (v === "0" || v === "false") return false;
  return null;
}

export function parseEmbedOptions(params: URLSearchParams): EmbedOptions {
  const background = params.get("background")?.trim() ?? "";
  const embedId = params.get("embed_id")?.trim() ?? "";
  return {
    autorotate: flag(params.get("autorotate")),
    annotations: flag(params.get("annotations")) ?? true,
    background: HEX_COLOUR.test(background) ? background.toLowerCase() : null,
    embedId: UUID.test(embedId) ? embedId.toLowerCase() : null,
  };
}

/** The query string for options (only those that differ from "as the item says"), for embed codes and the load command. */
export function embedQuery(options: Partial<EmbedOptions>): string {
  const params = new URLSearchParams();
  if (options.autorotate !== undefined && options.autorotate !== null) params.set("autorotate", options.autorotate ? "1" : "0");
  if (options.annotations === false) params.set("annotations", "0");
  if (options.background) params.set("background", options.background);
  if (options.embedId) params.set("embed_id", options.embedId);
  const query = params.toString();
  return query ? `?${query}` : "";
}
