/** What the Builder edits: the scene's parts in order, each with its transform, and whether it was saved. */
export interface EditorTransform {
  position: [number, number, number];
  quaternion: [number, number, number, number];
  scale: [number, number, number];
}

export interface EditorPart {
  /** The part's id on the server (every part has one: models join a scene through /builder/import). */
  id: string;
  item_id: string;
  name: string;
  model_type: string;
  transform: EditorTransform;
}

/** The body of PUT /v1/item/{id}/scene for what the editor shows. */
export function sceneSaveBody(name: string, parts: EditorPart[]) {
  return { name: name.trim(), parts: parts.map((part) => ({ id: part.id, item_id: part.item_id, transform: part.transform })) };
}

export function sameTransform(a: EditorTransform, b: EditorTransform): boolean {
  const close = (x: number[], y: number[]) => x.every((value, i) => Math.abs(value - y[i]) < 1e-9);
  return close(a.position, b.position) && close(a.quaternion, b.quaternion) && close(a.scale, b.scale);
}
