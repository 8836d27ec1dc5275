import { describe, expect, it } from "vitest";
import { itemSocialMeta } from "./social-meta";

const item = {
  id: "3f1c2a4e-8b7d-4e6f-9a0b-1c2d3e4f5a6b",
  name: "Oak chair",
  description: null,
  visibility: "public",
  thumbnail_url: "/v1/item/3f1c2a4e-8b7d-4e6f-9a0b-1c2d3e4f5a6b/thumbnail?v=abc",
  owner: { display_name: "Ada" },
};

function content(meta: ReturnType<typeof itemSocialMeta>, key: string) {
  return meta.find((m) => ("property" in m && m.property === key) || ("name" in m && m.name === key)) as { content: string } | undefined;
}

describe("itemSocialMeta", () => {
  it("describes a shared model for link previews, with the thumbnail as an absolute URL", () => {
    const meta = itemSocialMeta(item, "http://localhost:3000");
    expect(content(meta, "og:title")?.content).toBe("Oak chair — Scanroom");
    expect(content(meta, "og:description")?.content).toBe("A 3D model by Ada on Scanroom.");
    expect(content(meta, "og:image")?.content).toBe(`http://localhost:3000${item.thumbnail_url}`);
    expect(content(meta, "twitter:card")?.content).toBe("summary_large_image");
    expect(content(meta, "twitter:image")?.content).toBe(`http://localhost:3000${item.thumbnail_url}`);
    expect(meta).toContainEqual(expect.objectContaining({ tagName: "link", rel: "alternate", type: "application/json+oembed" }));
  });

  it("shows the turntable's first frame once there is one", () => {
    const poster = `/v1/item/${item.id}/turntable/poster?v=1a2b`;
    const meta = itemSocialMeta({ ...item, turntable: { poster_url: poster } }, "http://localhost:3000");
    expect(content(meta, "og:image")?.content).toBe(`http://localhost:3000${poster}`);
    expect(content(itemSocialMeta({ ...item, turntable: { poster_url: null } }, "http://localhost:3000"), "og:image")?.content).toBe(`http://localhost:3000${item.thumbnail_url}`);
  });

  it("offers a player card on https, a plain summary without a thumbnail, and nothing for a private model", () => {
    expect(content(itemSocialMeta(item, "https://scanroom.example"), "twitter:player")?.content).toBe(`https://scanroom.example/embed/${item.id}`);
    const bare = itemSocialMeta({ ...item, thumbnail_url: null, description: "x".repeat(500) }, "https://scanroom.example");
    expect(content(bare, "twitter:card")?.content).toBe("summary");
    expect(content(bare, "og:image")).toBeUndefined();
    expect(content(bare, "og:description")?.content).toHaveLength(200);
    expect(itemSocialMeta({ ...item, visibility: "private" }, "https://scanroom.example")).toEqual([]);
  });
});
