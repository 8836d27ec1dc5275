import { getApps, initializeApp } from "firebase/app";
import { browserLocalPersistence, browserSessionPersistence, connectAuthEmulator, indexedDBLocalPersistence, initializeAuth, type Auth } from "firebase/auth";
import type { PublicEnv } from "~/env.server";

let auth: Auth | undefined;

/**
 * The browser's Firebase Auth, pointed at the emulator in the local profile. Made without the popup/redirect
 * resolver getAuth() adds: on a phone that one loads Google's gapi script on every page (for a redirect sign-in we
 * never use), which costs a request and is refused where Google sign-in is off; the Google button passes it itself.
 */
export function firebaseAuth(config: PublicEnv["firebase"]): Auth {
  if (auth) return auth;
  const app =
    getApps()[0] ??
    initializeApp({ apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId });
  auth = initializeAuth(app, { persistence: [indexedDBLocalPersistence, browserLocalPersistence, browserSessionPersistence] });
  if (config.emulatorHost) connectAuthEmulator(auth, `http://${config.emulatorHost}`, { disableWarnings: true });
  return auth;
}
