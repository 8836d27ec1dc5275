import { apiRoute, endpoint } from "~/api/route.server";
import { deleteAccount, updateProfile } from "~/domain/account.server";
import { updateUserBodySchema } from "~/domain/schemas";
import { getCurrentUserWithPlan } from "~/domain/users.server";
import { presentCurrentUser } from "~/domain/user-presenter";

// GET /v1/user → the caller (created on first sight); 401 'Email not verified' when unverified.
// PATCH /v1/user {display_name?, avatar_path?} → the caller; DELETE /v1/user deletes the account for good.
const route = apiRoute({
  GET: endpoint({
    auth: "required",
    handler: async ({ user }) => ({ user: presentCurrentUser(await getCurrentUserWithPlan({ userId: user.id })) }),
  }),
  PATCH: endpoint({
    auth: "required",
    body: updateUserBodySchema,
    handler: async ({ user, body }) => {
      await updateProfile({ userId: user.id, changes: { displayName: body.display_name, avatarPath: body.avatar_path } });
      return { user: presentCurrentUser(await getCurrentUserWithPlan({ userId: user.id })) };
    },
  }),
  DELETE: endpoint({
    auth: "required",
    handler: ({ user }) => deleteAccount({ userId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
