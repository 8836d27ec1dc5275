import { describe, expect, it } from "vitest";
import { saveStateText, sceneCardMeta } from "./scene-status";

describe("the Builder's words for draft scenes (decision 046)", () => {
  it("says a scene never saved is a draft until its first save, and unsaved changes first", () => {
    expect(saveStateText({ isDraft: true, dirty: false })).toBe("Draft — not saved yet");
    expect(saveStateText({ isDraft: true, dirty: true })).toBe("Unsaved changes");
    expect(saveStateText({ isDraft: false, dirty: true })).toBe("Unsaved changes");
    expect(saveStateText({ isDraft: false, dirty: false })).toBe("All changes saved");
  });

  it("lists a draft as a draft in My scenes, a saved scene with its visibility and last change", () => {
    const scene = { part_count: 2, visibility: "private", updated_at: "2026-11-29T12:00:00.000Z" };
    expect(sceneCardMeta({ ...scene, is_draft: true })).toBe("Draft · 2 models · not saved yet");
    expect(sceneCardMeta({ ...scene, part_count: 0, is_draft: true })).toBe("Draft · 0 models · not saved yet");
    expect(sceneCardMeta({ ...scene, is_draft: false })).toMatch(/^2 models · private · changed Nov 29, 2026$/);
  });
});
