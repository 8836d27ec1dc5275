import { apiRoute, endpoint } from "~/api/route.server";
import { requestImageScan } from "~/domain/scans.server";
import { idParamsSchema, imageScanBodySchema } from "~/domain/schemas";

// POST /v1/scan/image/{id} {input_bucket_path} → { item_id, scan_job_id, status } (SPEC §7)
const route = apiRoute({
  POST: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: imageScanBodySchema,
    handler: ({ user, params, body }) =>
      requestImageScan({ itemId: params.id, ownerId: user.id, inputBucketPath: body.input_bucket_path }),
  }),
});

export const loader = route.loader;
export const action = route.action;
