import { describe, expect, it } from "vitest";
import { buildModelMetafield, legacyId } from "./shopify-model-metafield";

const chair = { id: "0b8f2c9e-8a51-4b1e-9a0d-3f0c7d2b9e11", name: "Chair", thumbnailKey: "items/0b8f/thumbnail/abc123.png" };
const lamp = { id: "7c1d2e3f-4a5b-4c6d-8e7f-901234567890", name: "Lamp", thumbnailKey: null };

describe("buildModelMetafield", () => {
  it("puts the whole-product model under product and variant models under their numeric ids", () => {
    const value = buildModelMetafield(
      [
        { variantGid: "", item: chair },
        { variantGid: "gid://shopify/ProductVariant/4455", item: lamp },
      ],
      "https://scanroom.app/some/path",
    );
    expect(value).toEqual({
      v: 1,
      origin: "https://scanroom.app",
      product: { id: chair.id, name: "Chair", poster: `https://scanroom.app/v1/item/${chair.id}/thumbnail?v=abc123.png` },
      variants: { "4455": { id: lamp.id, name: "Lamp", poster: null } },
    });
  });

  it("has no product entry when only variants have models, and is null without links", () => {
    expect(buildModelMetafield([{ variantGid: "gid://shopify/ProductVariant/1", item: lamp }], "http://localhost:3000")?.product).toBeNull();
    expect(buildModelMetafield([], "http://localhost:3000")).toBeNull();
  });

  it("reads numeric ids from GIDs and refuses anything else", () => {
    expect(legacyId("gid://shopify/Product/8123456789012")).toBe("8123456789012");
    expect(() => legacyId("8123")).toThrow("not a Shopify GID");
  });
});
