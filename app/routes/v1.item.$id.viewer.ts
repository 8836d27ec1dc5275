import { apiRoute, endpoint } from "~/api/route.server";
import { apiDataCached } from "~/api/respond.server";
import { idParamsSchema } from "~/domain/schemas";
import { getViewerConfig } from "~/domain/viewer-config.server";

// GET /v1/item/{id}/viewer (SPEC §7): URLs, settings, annotations and watermark. The answer is the same for
// everyone who may see the model, so shared caches may keep a public or unlisted one for a minute; a private
// one only its owner's browser, revalidating each time. The ETag makes a repeat view a 304.
const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    params: idParamsSchema,
    handler: async ({ user, params, request }) => {
      const config = await getViewerConfig({ itemId: params.id, viewerId: user?.id ?? null });
      const cacheControl = config.item.visibility === "private" ? "private, no-cache" : "public, max-age=60, stale-while-revalidate=60";
      return apiDataCached(request, config, { cacheControl });
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
