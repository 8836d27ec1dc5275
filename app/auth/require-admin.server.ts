import type { User } from "~/db.server";
import { requirePageUser } from "./require-user.server";

/**
 * For admin pages: signed-out visitors go to /auth (with the way back); signed-in users who are not
 * admins get the same 404 as an unknown page, so the admin area does not announce itself.
 * Admin rights come from our database (SPEC §6 user.is_admin), never from token claims.
 */
export async function requirePageAdmin(request: Request): Promise<User> {
  const user = await requirePageUser(request);
  if (!user.isAdmin) throw new Response("Not found", { status: 404 });
  return user;
}
