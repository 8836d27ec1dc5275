import { describe, expect, it } from "vitest";
import { earlyModelLinks } from "./viewer-preload-links";

const KEY = "site-key";
const splat = { model_url: "/v1/item/1/file", file_format: "ply", delivered_format: "sog", visibility: "public", scene_parts: null };

describe("earlyModelLinks", () => {
  it("starts a splat's coarse level first and ahead of the model (fetch priority), marked apart from it", () => {
    const links = earlyModelLinks({ ...splat, model_coarse_url: "/v1/item/1/file?variant=coarse" }, KEY);
    expect(links).toEqual([
      { tagName: "link", rel: "preload", href: "/v1/item/1/file?variant=coarse", as: "fetch", crossOrigin: "anonymous", "data-model-coarse": "", "data-xor-key": KEY, "data-splat": "", fetchpriority: "high" },
      { tagName: "link", rel: "preload", href: "/v1/item/1/file", as: "fetch", crossOrigin: "anonymous", "data-model": "", "data-xor-key": KEY, "data-splat": "", fetchpriority: "low" },
    ]);
    // A mesh has no coarse level to show first.
    const mesh = { ...splat, file_format: "glb", delivered_format: null, model_coarse_url: "/v1/item/1/file?variant=coarse" };
    expect(earlyModelLinks(mesh, KEY).map((link) => (link as { href?: string }).href)).toEqual(["/v1/item/1/file"]);
  });

  it("starts a public splat's download with the page, marked for the early decode with the site's key", () => {
    expect(earlyModelLinks(splat, KEY)).toEqual([
      { tagName: "link", rel: "preload", href: "/v1/item/1/file", as: "fetch", crossOrigin: "anonymous", "data-model": "", "data-xor-key": KEY, "data-splat": "" },
    ]);
  });

  it("preloads an unlisted mesh without marking it as a splat", () => {
    const [link] = earlyModelLinks({ ...splat, file_format: "glb", delivered_format: null, visibility: "unlisted" }, KEY);
    expect(link).toMatchObject({ rel: "preload", href: "/v1/item/1/file", "data-model": "" });
    expect(link).not.toHaveProperty("data-splat");
  });

  it("names nothing the viewer could not adopt: a private model (needs the owner's token), a scene, no file yet", () => {
    expect(earlyModelLinks({ ...splat, visibility: "private" }, KEY)).toEqual([]);
    expect(earlyModelLinks({ ...splat, visibility: null }, KEY)).toEqual([]);
    expect(earlyModelLinks({ ...splat, scene_parts: [{ id: "p" }] }, KEY)).toEqual([]);
    expect(earlyModelLinks({ ...splat, model_url: null }, KEY)).toEqual([]);
    expect(earlyModelLinks(null, KEY)).toEqual([]);
  });
});
