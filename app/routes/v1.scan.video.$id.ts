import { apiRoute, endpoint } from "~/api/route.server";
import { requestVideoScan } from "~/domain/scans.server";
import { idParamsSchema, videoScanBodySchema } from "~/domain/schemas";

// POST /v1/scan/video/{id} {duration, width, height, input_bucket_path} → { item_id, scan_job_id, status } (SPEC §7)
const route = apiRoute({
  POST: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: videoScanBodySchema,
    handler: ({ user, params, body }) =>
      requestVideoScan({
        itemId: params.id,
        ownerId: user.id,
        duration: body.duration,
        width: body.width,
        height: body.height,
        inputBucketPath: body.input_bucket_path,
      }),
  }),
});

export const loader = route.loader;
export const action = route.action;
