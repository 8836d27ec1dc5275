import { apiRoute, endpoint } from "~/api/route.server";
import { getUserById } from "~/domain/users.server";
import { presentPublicUser } from "~/domain/user-presenter";
import { idParamsSchema } from "~/domain/schemas";

const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    params: idParamsSchema,
    handler: async ({ params }) => ({ user: presentPublicUser(await getUserById({ userId: params.id })) }),
  }),
});

export const loader = route.loader;
export const action = route.action;
