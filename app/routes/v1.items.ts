import { apiRoute, endpoint } from "~/api/route.server";
import { listItems } from "~/domain/items.server";
import { presentItem } from "~/domain/item-presenter";
import { listItemsQuerySchema } from "~/domain/schemas";

// GET /v1/items?owner=me|{uuid}&q=&category=&sort=&cursor=&limit= (undefined filters skipped)
const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    query: listItemsQuerySchema,
    handler: async ({ user, query }) => {
      const viewerId = user?.id ?? null;
      const page = await listItems({ viewerId, query });
      return { items: page.items.map((item) => presentItem(item, viewerId)), next_cursor: page.next_cursor };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
