import { z } from "zod";
import { apiRoute, endpoint } from "~/api/route.server";
import { DOWNLOAD_KINDS } from "~/domain/downloads";
import { issueItemDownloads } from "~/domain/downloads.server";
import { idParamsSchema } from "~/domain/schemas";

const downloadsQuerySchema = z
  .object({
    /** `?kind=mesh`: one kind of file only (one link issued instead of one per file). */
    kind: z.enum(DOWNLOAD_KINDS).optional(),
  })
  .strict();

// GET /v1/item/{id}/downloads — the files of a model this caller may download, each with a
// short-lived signed link that saves the plain file (app/domain/downloads.server.ts has the rules).
const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    params: idParamsSchema,
    query: downloadsQuerySchema,
    handler: ({ user, params, query }) => issueItemDownloads({ itemId: params.id, viewerId: user?.id ?? null, kind: query.kind }),
  }),
});

export const loader = route.loader;
export const action = route.action;
