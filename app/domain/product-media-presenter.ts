/** How the embedded admin words a product's 3D media (issue 40): shared by its loaders and components. */

/** Where our media of a model is: going up, Shopify processing it, in the product's media, or refused. */
export type MediaState = "uploading" | "processing" | "ready" | "failed";

export const MEDIA_NEEDS_A_MESH = "Shopify's product media shows meshes only: this model is a splat without a mesh, so only the theme block shows it.";

/** One media state as a badge. */
export function describeMediaState(media: { status: MediaState; error: string | null }): { tone: "success" | "attention" | "critical"; label: string } {
  switch (media.status) {
    case "ready":
      return { tone: "success", label: "In the product's media" };
    case "failed":
      return { tone: "critical", label: `Not in the product's media: ${media.error ?? "Shopify could not add it."}` };
    default:
      return { tone: "attention", label: "Being added to the product's media" };
  }
}
