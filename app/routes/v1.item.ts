import { apiRoute, endpoint } from "~/api/route.server";
import { createItem } from "~/domain/items.server";
import { createItemBodySchema } from "~/domain/schemas";

// POST /v1/item → { item_id } (SPEC §7)
const route = apiRoute({
  POST: endpoint({
    auth: "required",
    body: createItemBodySchema,
    handler: async ({ user, body }) => {
      const item = await createItem({
        ownerId: user.id,
        modelType: body.model_type,
        uploadType: body.upload_type,
        name: body.name,
      });
      return { item_id: item.id };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
