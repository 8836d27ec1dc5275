import { apiRoute, endpoint } from "~/api/route.server";
import { searchUsers } from "~/domain/admin-users.server";
import { adminUserSearchSchema } from "~/domain/schemas";

// GET /v1/admin/users?q= → users whose email or name contains q (or whose id is q), newest first.
const route = apiRoute({
  GET: endpoint({ auth: "admin", query: adminUserSearchSchema, handler: ({ query }) => searchUsers(query) }),
});

export const loader = route.loader;
export const action = route.action;
