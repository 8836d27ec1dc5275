import { z } from "zod";
import { apiRoute, endpoint } from "~/api/route.server";
import { getPageUser } from "~/auth/require-user.server";
import { serveArFile } from "~/domain/ar-model.server";
import { uuidSchema } from "~/domain/schemas";

// GET /v1/item/{id}/ar/{usdz|glb}?v= → the model's mesh for AR Quick Look (USDZ) or Scene Viewer (GLB), at its
// real-world scale, for whoever may see the model (Quick Look and Scene Viewer send no bearer token: the site's
// session cookie counts too, and public and unlisted models need neither).
const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    params: z.object({ id: uuidSchema, file: z.enum(["usdz", "glb"], { errorMap: () => ({ message: "must be one of usdz, glb" }) }) }),
    query: z.object({ v: z.string().max(64).optional() }),
    handler: async ({ user, params, request }) =>
      serveArFile({ itemId: params.id, file: params.file, viewerId: user?.id ?? (await getPageUser(request))?.id ?? null, request }),
  }),
});

export const loader = route.loader;
export const action = route.action;
