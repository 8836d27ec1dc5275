import { describe, expect, it } from "vitest";
import { buildOembed, fitEmbedSize, oembedDiscoveryHref, parseModelUrl } from "./oembed";

const APP = "https://scanroom.example";
const ID = "3f1c2a4e-8b7d-4e6f-9a0b-1c2d3e4f5a6b";

describe("parseModelUrl", () => {
  it("recognises our model pages, viewers, embeds and share links", () => {
    for (const path of [`/item/${ID}`, `/item/${ID}/`, `/embed/${ID}?autorotate=1`, `/viewer/${ID.toUpperCase()}#x`]) {
      expect(parseModelUrl(`${APP}${path}`, APP), path).toEqual({ itemId: ID });
    }
    expect(parseModelUrl(`${APP}/s/AbCdEfGh23`, APP)).toEqual({ slug: "AbCdEfGh23" });
  });

  it("refuses other hosts, other paths and garbage", () => {
    for (const url of [`https://evil.example/item/${ID}`, `http://scanroom.example/item/${ID}`, `${APP}/item/${ID}/edit`, `${APP}/u/${ID}`, "not a url", `${APP}/s/short`]) {
      expect(parseModelUrl(url, APP), url).toBeNull();
    }
  });
});

describe("fitEmbedSize", () => {
  it("is 640×480 unless asked for less, keeping 4:3", () => {
    expect(fitEmbedSize({})).toEqual({ width: 640, height: 480 });
    expect(fitEmbedSize({ maxwidth: 2000 })).toEqual({ width: 640, height: 480 });
    expect(fitEmbedSize({ maxwidth: 320 })).toEqual({ width: 320, height: 240 });
    expect(fitEmbedSize({ maxwidth: 600, maxheight: 300 })).toEqual({ width: 400, height: 300 });
  });
});

describe("buildOembed", () => {
  it("answers a rich type with the iframe, the author and the thumbnail with its size", () => {
    const answer = buildOembed({
      appUrl: APP,
      item: { id: ID, name: 'Chair "A" <1>', owner: { id: "u1", display_name: null } },
      size: { width: 320, height: 240 },
      thumbnail: { url: `${APP}/thumb.png`, width: 64, height: 48 },
    });
    expect(answer).toMatchObject({
      version: "1.0",
      type: "rich",
      title: 'Chair "A" <1>',
      author_name: "Anonymous",
      author_url: `${APP}/u/u1`,
      provider_name: "Scanroom",
      width: 320,
      height: 240,
      thumbnail_url: `${APP}/thumb.png`,
      thumbnail_width: 64,
      thumbnail_height: 48,
    });
    expect(answer.html).toBe(
      `<iframe src="${APP}/embed/${ID}" title="Chair &quot;A&quot; &lt;1&gt;" width="320" height="240" style="border:0" allow="fullscreen; xr-spatial-tracking" allowfullscreen></iframe>`,
    );
    const without = buildOembed({ appUrl: APP, item: { id: ID, name: "x", owner: { id: "u1", display_name: "Ada" } }, size: { width: 1, height: 1 }, thumbnail: null });
    expect(without).not.toHaveProperty("thumbnail_url");
    expect(without).not.toHaveProperty("thumbnail_width");
  });

  it("links discovery to the model page URL", () => {
    expect(oembedDiscoveryHref(APP, ID)).toBe(`${APP}/oembed?url=${encodeURIComponent(`${APP}/item/${ID}`)}&format=json`);
  });
});
