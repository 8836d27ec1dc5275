import { apiRoute, endpoint } from "~/api/route.server";
import { listAuditEntries } from "~/domain/audit.server";
import { auditQuerySchema } from "~/domain/schemas";

// GET /v1/admin/audit?target_type=&target_id= → the admin audit log, newest first.
const route = apiRoute({
  GET: endpoint({
    auth: "admin",
    query: auditQuerySchema,
    handler: ({ query }) => listAuditEntries({ targetType: query.target_type, targetId: query.target_id, limit: query.limit }),
  }),
});

export const loader = route.loader;
export const action = route.action;
