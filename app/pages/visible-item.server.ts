import { getPageUser } from "~/auth/require-user.server";
import { isAppError } from "~/lib/errors";
import { recordItemView } from "~/domain/items.server";
import { getVisibleItem } from "~/domain/item-access.server";
import { uuidSchema } from "~/domain/schemas";
import { presentViewableItem } from "~/domain/scenes.server";

/**
 * The item a page shows (viewer, embed): visible to this request's user, else a 404 response —
 * private items look exactly like unknown ones to everybody but their owner.
 */
export async function loadVisibleItem(request: Request, id: string | undefined, { countView }: { countView: boolean }) {
  if (!uuidSchema.safeParse(id).success) throw new Response("Not found", { status: 404 });
  const user = await getPageUser(request);
  const viewerId = user?.id ?? null;
  try {
    const item = await getVisibleItem({ itemId: id!, viewerId });
    if (countView && item.ownerId !== viewerId) {
      await recordItemView({ itemId: item.id, viewerId });
      item.viewCount += 1;
    }
    return await presentViewableItem(item, viewerId);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw new Response("Not found", { status: 404 });
    throw error;
  }
}
