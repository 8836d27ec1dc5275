import { formatDate, pluralize } from "~/lib/format";

/**
 * What the Builder says of a scene's state (docs/decisions/046-draft-scenes.md): a scene is a draft until its
 * first save — its owner's alone, off the dashboard and Explore — and the Builder says so where it shows it.
 */

/** The editor's save line: a draft says it was never saved, even before anything changed. */
export function saveStateText({ isDraft, dirty }: { isDraft: boolean; dirty: boolean }): string {
  if (dirty) return "Unsaved changes";
  return isDraft ? "Draft — not saved yet" : "All changes saved";
}

/** The line under a scene in "My scenes": a draft's instead of its visibility, which applies from the first save. */
export function sceneCardMeta(scene: { is_draft: boolean; part_count: number; visibility: string; updated_at: string }): string {
  const models = pluralize(scene.part_count, "model");
  return scene.is_draft
    ? `Draft · ${models} · not saved yet`
    : `${models} · ${scene.visibility} · changed ${formatDate(scene.updated_at)}`;
}
