import { presentItem } from "./item-presenter";
import type { ItemWithOwner } from "./item-access.server";
import type { ScenePartDto } from "./scenes.server";

/** The API's view of a scene: the item as for any model, and its parts in order. */
export function presentScene(scene: { item: ItemWithOwner; parts: ScenePartDto[] }, viewerId: string | null) {
  return { item: presentItem(scene.item, viewerId), parts: scene.parts };
}
