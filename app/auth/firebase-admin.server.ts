import { getApps, initializeApp, type App } from "firebase-admin/app";
import { getAuth, type DecodedIdToken } from "firebase-admin/auth";
import { env } from "~/env.server";

let app: App | undefined;

function firebaseApp(): App {
  if (!app) {
    const e = env(); // also exports FIREBASE_AUTH_EMULATOR_HOST for the local profile
    app = getApps().find((a) => a.name === "scanroom") ?? initializeApp({ projectId: e.FIREBASE_PROJECT_ID }, "scanroom");
  }
  return app;
}

export function firebaseAuth() {
  return getAuth(firebaseApp());
}

/**
 * Verifies a Firebase ID token (signature, audience, expiry) and that its account still stands:
 * revoked sessions, disabled and deleted Firebase accounts fail at once, not when the token expires
 * (issue 17 item 12). Returns null when it is not valid.
 */
export async function verifyIdToken(token: string): Promise<DecodedIdToken | null> {
  try {
    return await firebaseAuth().verifyIdToken(token, true);
  } catch {
    return null;
  }
}
