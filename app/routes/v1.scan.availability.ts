import { apiRoute, endpoint } from "~/api/route.server";
import { getScanAvailability } from "~/domain/scan-availability.server";

// GET /v1/scan/availability → { available, missing, message }: whether this server takes scans now
// (issue 17 item 1; the upload dialog asks before a video or photo set is uploaded).
const route = apiRoute({
  GET: endpoint({ auth: "none", handler: () => getScanAvailability() }),
});

export const loader = route.loader;
export const action = route.action;
