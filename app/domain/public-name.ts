/**
 * The name other people see for an account (issue 17, item 18). It never shows any part of an email: an
 * account without a usable display name gets a neutral handle derived from its id, which its owner can
 * change on the settings page (PATCH /v1/user {display_name}).
 */
export function neutralHandle(userId: string): string {
  return `creator-${userId.replace(/-/g, "").slice(0, 8).toLowerCase()}`;
}

const EMAIL_SHAPED = /[^\s@]+@[^\s@]+/;

/**
 * The display name a new account starts with: the sign-in provider's profile name when it is a real name,
 * else the neutral handle. A profile name that is an email, or the account email's local part, is not used.
 */
export function initialDisplayName({ userId, profileName, email }: { userId: string; profileName: unknown; email: string | null }): string {
  const name = typeof profileName === "string" ? profileName.trim().slice(0, 60) : "";
  if (!name || EMAIL_SHAPED.test(name)) return neutralHandle(userId);
  const localPart = email?.split("@")[0]?.trim().toLowerCase();
  if (localPart && name.toLowerCase() === localPart) return neutralHandle(userId);
  return name;
}

/** The public name of an account; rows that never got one still show no part of their email. */
export function publicDisplayName(user: { id: string; displayName: string | null }): string {
  return user.displayName ?? neutralHandle(user.id);
}
