import type { AppLoadContext } from "@remix-run/node";
import { getPageUser } from "~/auth/require-user.server";
import { isAppError } from "~/lib/errors";
import { countItemView } from "~/domain/item-views.server";
import { getVisibleItem } from "~/domain/item-access.server";
import { uuidSchema } from "~/domain/schemas";
import { presentViewableItem } from "~/domain/scenes.server";
import { itemPageShows, pageHeaders } from "~/lib/public-page-cache";

/**
 * The item a page shows (model page, viewer): visible to this request's user, else a 404 response —
 * private items look exactly like unknown ones to everybody but their owner — and the page's headers: a
 * signed-out visitor's page may be shared for a few seconds (each copy counting its view), a signed-in
 * person's never (docs/decisions/045-shared-page-cache.md). With `countView`, the page counts a view, unless it is
 * rendered for no one (`context.forNoOne`: the web process's own request, its warm-up or a kept page's refresh,
 * decisions 068 and 072), though its copies given to visitors still do.
 */
export async function loadVisibleItem(request: Request, id: string | undefined, { countView, context }: { countView: boolean; context: AppLoadContext }) {
  if (!uuidSchema.safeParse(id).success) throw new Response("Not found", { status: 404 });
  const user = await getPageUser(request);
  const viewerId = user?.id ?? null;
  try {
    const item = await getVisibleItem({ itemId: id!, viewerId });
    if (countView && item.ownerId !== viewerId && !context.forNoOne) {
      countItemView(item.id);
      item.viewCount += 1;
    }
    const presented = await presentViewableItem(item, viewerId);
    const headers = pageHeaders({ shared: !viewerId, countsViewOf: countView && !viewerId ? item.id : undefined, shows: itemPageShows(presented) });
    return { item: presented, headers, signedOut: viewerId === null };
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw new Response("Not found", { status: 404 });
    throw error;
  }
}
