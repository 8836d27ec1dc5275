import { describe, expect, it } from "vitest";
import { downloadFileName, keyExtension, safeFileStem } from "./downloads";

describe("download file names", () => {
  it("keeps a model's name readable and safe for a Content-Disposition header", () => {
    expect(safeFileStem('Cat "v2": final/draft')).toBe("Cat _v2_ final_draft");
    expect(safeFileStem("  ")).toBe("model");
  });

  it("names each kind after the model, with the stored file's extension", () => {
    const name = (kind: Parameters<typeof downloadFileName>[0]["kind"], extension: string, sourceName?: string) =>
      downloadFileName({ itemName: "Guitar scan", kind, extension, sourceName });
    expect(name("splat", "ply")).toBe("Guitar scan.ply");
    expect(name("delivery", "SOG")).toBe("Guitar scan.sog");
    expect(name("mesh", "glb")).toBe("Guitar scan mesh.glb");
    expect(name("mesh_lite", "glb")).toBe("Guitar scan mesh lite.glb");
    expect(name("video", "mp4")).toBe("Guitar scan video.mp4");
    expect(name("photo", "jpg", "image-007.jpg")).toBe("Guitar scan image-007.jpg");
  });

  it("reads the extension of a storage key", () => {
    expect(keyExtension("items/1/model/abc.GLB")).toBe("glb");
    expect(keyExtension("items/1/thumbnail/abc")).toBeNull();
    expect(keyExtension("items/1/.hidden")).toBeNull();
  });
});
