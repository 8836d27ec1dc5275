import { z } from "zod";
import { apiRoute, endpoint } from "~/api/route.server";
import { getPageUser } from "~/auth/require-user.server";
import { serveTurntableFile } from "~/domain/item-turntables.server";
import { uuidSchema } from "~/domain/schemas";

// GET /v1/item/{id}/turntable/{mp4|gif|poster}[?download=true] → the turntable's video, GIF or first frame, for
// whoever may see the model (an <img> or <video> sends no bearer token: the site's session cookie counts too).
const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    params: z.object({ id: uuidSchema, file: z.enum(["mp4", "gif", "poster"], { errorMap: () => ({ message: "must be one of mp4, gif, poster" }) }) }),
    query: z.object({ download: z.enum(["true", "false"]).optional(), v: z.string().max(64).optional() }),
    handler: async ({ user, params, query, request }) =>
      serveTurntableFile({
        itemId: params.id,
        file: params.file,
        viewerId: user?.id ?? (await getPageUser(request))?.id ?? null,
        request,
        download: query.download === "true",
      }),
  }),
});

export const loader = route.loader;
export const action = route.action;
