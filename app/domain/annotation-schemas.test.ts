import { describe, expect, it } from "vitest";
import { annotationQuotaMessage, createAnnotationBodySchema, imageExtensionOf, updateAnnotationBodySchema } from "./annotation-schemas";

describe("annotation input rules", () => {
  it("names the plan's per-model quota the way SPEC §9 shows it", () => {
    expect(annotationQuotaMessage(5)).toContain("(5 per model)");
  });

  it("accepts only picture names with a jpeg, png, webp or gif extension, in any case", () => {
    expect(imageExtensionOf("photo.PNG")).toBe("png");
    expect(imageExtensionOf("a.b.jpeg")).toBe("jpeg");
    expect(imageExtensionOf("anim.gif")).toBe("gif");
    expect(imageExtensionOf("run.exe")).toBeNull();
    expect(imageExtensionOf("png")).toBeNull();
    expect(imageExtensionOf("photo.png.")).toBeNull();
  });

  it("needs a title and a finite [x, y, z] anchor; trims the title", () => {
    expect(createAnnotationBodySchema.parse({ title: "  Ear ", position: [1, 2, 3] })).toEqual({ title: "Ear", position: [1, 2, 3] });
    expect(createAnnotationBodySchema.safeParse({ title: "Ear", position: [1, 2, Number.NaN] }).success).toBe(false);
    expect(createAnnotationBodySchema.safeParse({ title: "Ear", position: [1, 2, 3, 4] }).success).toBe(false);
    expect(createAnnotationBodySchema.safeParse({ title: "Ear", position: [0, 0, 2e6] }).success).toBe(false);
  });

  it("refuses a camera view looking at its own position, and empty updates", () => {
    const view = { position: [1, 1, 1], target: [1, 1, 1] };
    expect(createAnnotationBodySchema.safeParse({ title: "A", position: [0, 0, 0], camera: view }).success).toBe(false);
    expect(updateAnnotationBodySchema.safeParse({}).success).toBe(false);
    expect(updateAnnotationBodySchema.safeParse({ camera: null, normal: null, image_path: null }).success).toBe(true);
  });
});
