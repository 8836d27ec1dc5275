import { apiRoute, endpoint } from "~/api/route.server";
import { getUserQuotas } from "~/domain/credits.server";

// GET /v1/user/quotas → SPEC §3 Quotas (-1 = unlimited)
const route = apiRoute({
  GET: endpoint({
    auth: "required",
    handler: ({ user }) => getUserQuotas({ userId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
