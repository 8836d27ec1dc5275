import type { User } from "firebase/auth";
import { MIN_PASSWORD_LENGTH } from "./password-rule";

/** Firebase Auth and our app's instance of it, loaded when a form first needs them (not in the page's first chunk). */
export async function authModule() {
  const [{ firebaseAuth }, fb] = await Promise.all([import("~/auth/firebase.client"), import("firebase/auth")]);
  return { firebaseAuth, fb };
}

/**
 * Local mode: the link the Auth emulator recorded for the address instead of emailing it (null if none) — to verify
 * a new account, reset a password, or confirm a change of e-mail address (sent to the new address).
 */
export async function localLinkFor(email: string, purpose: "verify" | "reset" | "change"): Promise<string | null> {
  const response = await fetch(`/auth/local-verification-link?purpose=${purpose}&email=${encodeURIComponent(email)}`);
  const body = await response.json().catch(() => null);
  return typeof body?.data?.link === "string" ? body.data.link : null;
}

/**
 * Proves it is the account's owner at the keyboard before a change Firebase guards (password, e-mail address):
 * signs in again with the password. A wrong password throws `wrongPassword`, in the form's own words.
 */
export async function reauthenticateWithPassword(user: User, password: string, wrongPassword: string): Promise<void> {
  const { fb } = await authModule();
  try {
    await fb.reauthenticateWithCredential(user, fb.EmailAuthProvider.credential(user.email ?? "", password));
  } catch (error) {
    const code = (error as { code?: string })?.code;
    throw code === "auth/invalid-credential" || code === "auth/wrong-password" ? new Error(wrongPassword) : error;
  }
}

/** A Firebase Auth error in the words the site's forms show. */
export function describeAuthError(error: unknown): string {
  const code = (error as { code?: string })?.code ?? "";
  const messages: Record<string, string> = {
    "auth/invalid-credential": "The email or password is not right.",
    "auth/wrong-password": "The email or password is not right.",
    "auth/user-not-found": "The email or password is not right.",
    "auth/email-already-in-use": "An account with this email already exists. Sign in instead.",
    "auth/weak-password": `Use at least ${MIN_PASSWORD_LENGTH} characters.`,
    "auth/invalid-email": "Enter a valid email address.",
    "auth/too-many-requests": "Too many attempts. Wait a moment and try again.",
    "auth/network-request-failed": "We could not reach the sign-in service. Check your connection.",
    "auth/expired-action-code": "This link has expired. Ask for a new one.",
    "auth/invalid-action-code": "This link is not valid any more (it may have been used already). Ask for a new one.",
    "auth/requires-recent-login": "For your safety, sign out and in again, then retry.",
    "auth/operation-not-allowed": "This change is not allowed for this account.",
  };
  return messages[code] ?? (error instanceof Error ? error.message : "Sign-in failed.");
}
