import { redirect } from "@remix-run/node";
import { db, type User } from "~/db.server";
import { AppError } from "~/lib/errors";
import { assertUsableIdentity, assertUserActive, getOrCreateUserForIdentity } from "~/domain/users.server";
import { verifyIdToken } from "./firebase-admin.server";
import { getSessionUserId } from "./session.server";

function bearerToken(request: Request): string | null {
  const header = request.headers.get("Authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match ? match[1] : null;
}

/** The API's caller from its bearer ID token; null when no token is sent. */
export async function getApiUser(request: Request): Promise<User | null> {
  const token = bearerToken(request);
  if (!token) return null;
  const identity = await verifyIdToken(token);
  if (!identity) throw new AppError("unauthorized", "The sign-in token is invalid or expired.");
  assertUsableIdentity(identity);
  const user = await getOrCreateUserForIdentity(identity);
  assertUserActive(user);
  return user;
}

export async function requireApiUser(request: Request): Promise<User> {
  const user = await getApiUser(request);
  if (!user) throw new AppError("unauthorized", "Sign in to continue.");
  return user;
}

/** The signed-in user of a site page, from the session cookie; null when signed out or disabled. */
export async function getPageUser(request: Request): Promise<User | null> {
  const userId = await getSessionUserId(request);
  if (!userId) return null;
  return db().user.findFirst({ where: { id: userId, disabledAt: null } });
}

/** For pages that need a signed-in user: otherwise to /auth with the redirect back (SPEC §2). */
export async function requirePageUser(request: Request): Promise<User> {
  const user = await getPageUser(request);
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/auth?redirect=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return user;
}
