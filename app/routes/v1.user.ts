import { apiRoute, endpoint } from "~/api/route.server";
import { getCurrentUserWithPlan } from "~/domain/users.server";
import { presentCurrentUser } from "~/domain/user-presenter";

// GET /v1/user → the caller (created on first sight); 401 'Email not verified' when unverified.
const route = apiRoute({
  GET: endpoint({
    auth: "required",
    handler: async ({ user }) => ({ user: presentCurrentUser(await getCurrentUserWithPlan({ userId: user.id })) }),
  }),
});

export const loader = route.loader;
export const action = route.action;
