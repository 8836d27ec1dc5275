import { apiRoute, endpoint } from "~/api/route.server";
import { requestTurntable } from "~/domain/item-turntables.server";
import { idParamsSchema } from "~/domain/schemas";
import { enqueueTurntableJob } from "~/jobs/turntable-jobs.server";

// POST → the turntable's state ("rendering"): its owner asks for a video of the model going once around (issue 35 item 2).
const route = apiRoute({
  POST: endpoint({
    auth: "required",
    params: idParamsSchema,
    handler: ({ user, params }) => requestTurntable({ itemId: params.id, ownerId: user.id, enqueue: enqueueTurntableJob }),
  }),
});

export const loader = route.loader;
export const action = route.action;
