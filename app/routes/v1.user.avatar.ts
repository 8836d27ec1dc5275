import { apiRoute, endpoint } from "~/api/route.server";
import { createAvatarUpload } from "~/domain/account.server";

// POST /v1/user/avatar → {path, url}: PUT the image (≤ 2 MB) there, then PATCH /v1/user {avatar_path: path}.
const route = apiRoute({
  POST: endpoint({ auth: "required", handler: ({ user }) => createAvatarUpload({ userId: user.id }) }),
});

export const loader = route.loader;
export const action = route.action;
