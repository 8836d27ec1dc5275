import { apiRoute, endpoint } from "~/api/route.server";
import { deleteItem, updateItem } from "~/domain/items.server";
import { getVisibleItem } from "~/domain/item-access.server";
import { presentItem } from "~/domain/item-presenter";
import { idParamsSchema, updateItemBodySchema } from "~/domain/schemas";

const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    params: idParamsSchema,
    handler: async ({ user, params }) => {
      const viewerId = user?.id ?? null;
      return presentItem(await getVisibleItem({ itemId: params.id, viewerId }), viewerId);
    },
  }),
  PATCH: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: updateItemBodySchema,
    handler: async ({ user, params, body }) => {
      const { category_id, allow_downloads, ...rest } = body; // name, description, visibility, tags, license
      const item = await updateItem({
        itemId: params.id,
        ownerId: user.id,
        changes: {
          ...rest,
          ...(category_id !== undefined ? { categoryId: category_id } : {}),
          ...(allow_downloads !== undefined ? { allowDownloads: allow_downloads } : {}),
        },
      });
      return presentItem(item, user.id);
    },
  }),
  DELETE: endpoint({
    auth: "required",
    params: idParamsSchema,
    handler: async ({ user, params }) => {
      await deleteItem({ itemId: params.id, ownerId: user.id });
      return { item_id: params.id, deleted: true };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
