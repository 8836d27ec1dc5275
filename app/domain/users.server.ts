import { randomUUID } from "node:crypto";
import type { DecodedIdToken } from "firebase-admin/auth";
import { db, type User } from "~/db.server";
import { AppError, notFound } from "~/lib/errors";
import { ensureSubscription } from "./plans.server";
import { initialDisplayName } from "./public-name";

/**
 * Our user row for a verified identity, created on first sight. Admin rights and disabled state
 * come from our database, never from token claims (DESIGN §2).
 */
export async function getOrCreateUserForIdentity(identity: DecodedIdToken): Promise<User> {
  const email = identity.email ?? null;
  const emailVerified = identity.email_verified === true;
  // One query on every signed-in request (issue 37): the row, and whether it has its subscription.
  const existing = await db().user.findUnique({ where: { firebaseUid: identity.uid }, include: { subscription: { select: { userId: true } } } });
  if (existing) {
    // A row that exists belongs to no deleted account: deleting one removes its row and records its uid in
    // one transaction (account.server.ts deleteAccount).
    const { subscription, ...row } = existing;
    // Written only when the identity changed (issue 17 item 13): a write bumps updatedAt, which versions
    // the avatar URL, so rewriting on every call would defeat its caching.
    const user = row.email === email && row.emailVerified === emailVerified ? row : await db().user.update({ where: { id: row.id }, data: { email, emailVerified } });
    if (!subscription) await ensureSubscription({ userId: user.id });
    return user;
  }
  // A deleted account stays deleted: a token of its identity never brings the row back (issue 17).
  const deleted = await db().deletedAccount.findUnique({ where: { firebaseUid: identity.uid }, select: { firebaseUid: true } });
  if (deleted) throw new AppError("unauthorized", "This account has been deleted.");
  // Never a part of the email as the public name (issue 17, item 18): a neutral handle the owner can change.
  const id = randomUUID();
  const displayName = initialDisplayName({ userId: id, profileName: identity.name, email });
  // Several first requests of a new identity race (a page firing its API calls at once): INSERT … ON
  // CONFLICT DO NOTHING, then read the one row. Prisma's upsert is a read then a write here, and the
  // loser of the race failed on the unique firebaseUid with a 500.
  await db().user.createMany({ data: [{ id, firebaseUid: identity.uid, email, emailVerified, displayName }], skipDuplicates: true });
  const user = await db().user.findUniqueOrThrow({ where: { firebaseUid: identity.uid } });
  await ensureSubscription({ userId: user.id });
  return user;
}

/** Refuses identities we must not serve: unverified email (SPEC §7) and disabled accounts. */
export function assertUsableIdentity(identity: DecodedIdToken) {
  if (identity.email_verified !== true) throw new AppError("email_not_verified", "Email not verified");
}

export function assertUserActive(user: User) {
  if (user.disabledAt) throw new AppError("account_disabled", "This account has been disabled.");
}

export async function getUserById({ userId }: { userId: string }) {
  const user = await db().user.findFirst({ where: { id: userId, disabledAt: null } });
  if (!user) throw notFound("User");
  return user;
}

export async function getCurrentUserWithPlan({ userId }: { userId: string }) {
  const user = await db().user.findUniqueOrThrow({
    where: { id: userId },
    include: { subscription: { include: { plan: true } } },
  });
  return user;
}
