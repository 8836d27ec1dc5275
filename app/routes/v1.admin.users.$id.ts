import { apiRoute, endpoint } from "~/api/route.server";
import { getUserOverview } from "~/domain/admin-users.server";
import { adminUserQuerySchema, idParamsSchema } from "~/domain/schemas";

// GET /v1/admin/users/{id}?ledger_before= → the user with plan, quotas, a page of their ledger, items and admin history.
const route = apiRoute({
  GET: endpoint({
    auth: "admin",
    params: idParamsSchema,
    query: adminUserQuerySchema,
    handler: ({ params, query }) => getUserOverview({ userId: params.id, ledgerBefore: query.ledger_before }),
  }),
});

export const loader = route.loader;
export const action = route.action;
