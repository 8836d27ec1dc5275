import { firebaseAuth } from "~/auth/firebase-admin.server";
import { db, type User } from "~/db.server";
import { logger } from "~/lib/logger.server";
import { storage } from "~/storage/index.server";
import { cancelStripeBillingOfAccount } from "./billing-checkout.server";
import { avatarKey, itemPrefix, userPrefix } from "~/storage/keys";
import { notFound } from "~/lib/errors";
import { acceptUploadedImage, createImageUploadUrl, serveImage } from "./images.server";

/**
 * The signed-in user's own account (/settings): display name, avatar, and deleting everything.
 * Every function takes the caller's id; nothing here reads another user's data.
 */

export async function updateProfile({ userId, changes }: { userId: string; changes: { displayName?: string; avatarPath?: string | null } }): Promise<User> {
  const current = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { avatarKey: true } });
  let avatar: string | null | undefined;
  if (changes.avatarPath === null) avatar = null;
  else if (changes.avatarPath !== undefined) {
    await acceptUploadedImage({ key: changes.avatarPath, prefix: `${userPrefix(userId)}avatar/` });
    avatar = changes.avatarPath;
  }
  const user = await db().user.update({
    where: { id: userId },
    data: { ...(changes.displayName !== undefined ? { displayName: changes.displayName } : {}), ...(avatar !== undefined ? { avatarKey: avatar } : {}) },
  });
  if (avatar !== undefined && current.avatarKey && current.avatarKey !== avatar) {
    await storage().delete(current.avatarKey).catch((error) => logger.warn("old avatar not deleted", { error }));
  }
  return user;
}

/** A signed upload link for a new avatar (≤ 2 MB); it takes effect when PATCH /v1/user names its path. */
export function createAvatarUpload({ userId }: { userId: string }) {
  return createImageUploadUrl({ key: avatarKey(userId) });
}

/** The avatar of an active user, for /avatars/{id}. */
export async function serveAvatar({ userId, request }: { userId: string; request: Request }) {
  const user = await db().user.findFirst({ where: { id: userId, disabledAt: null }, select: { avatarKey: true, updatedAt: true } });
  if (!user?.avatarKey) throw notFound("Avatar");
  const version = new URL(request.url).searchParams.get("v");
  return serveImage({ key: user.avatarKey, request, immutable: version === String(user.updatedAt.getTime()) });
}

/**
 * Deletes the account for good: every item's files, the avatar, the user row (its items, ledger,
 * notifications and links go with it by cascade) and the Firebase identity.
 */
export async function deleteAccount({ userId }: { userId: string }) {
  const user = await db().user.findUnique({ where: { id: userId }, select: { firebaseUid: true } });
  if (!user) throw notFound("User");
  // Nobody is charged for an account that no longer exists (issue 8): a failure stops the deletion here.
  await cancelStripeBillingOfAccount({ userId });
  const items = await db().item.findMany({ where: { ownerId: userId }, select: { id: true } });
  for (const item of items) await storage().deletePrefix(itemPrefix(item.id));
  await storage().deletePrefix(userPrefix(userId));
  // The uid is recorded with the deletion so that no still-valid token recreates the account.
  await db().$transaction([
    db().deletedAccount.upsert({ where: { firebaseUid: user.firebaseUid }, create: { firebaseUid: user.firebaseUid }, update: {} }),
    db().user.delete({ where: { id: userId } }),
  ]);
  try {
    await firebaseAuth().deleteUser(user.firebaseUid);
  } catch (error) {
    if ((error as { code?: string })?.code !== "auth/user-not-found") throw error;
  }
  logger.info("account deleted", { userId, items: items.length });
  return { deleted_items: items.length };
}
