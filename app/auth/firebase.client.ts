import { getApps, initializeApp } from "firebase/app";
import { connectAuthEmulator, getAuth, type Auth } from "firebase/auth";
import type { PublicEnv } from "~/env.server";

let auth: Auth | undefined;

/** The browser's Firebase Auth, pointed at the emulator in the local profile. */
export function firebaseAuth(config: PublicEnv["firebase"]): Auth {
  if (auth) return auth;
  const app =
    getApps()[0] ??
    initializeApp({ apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId });
  auth = getAuth(app);
  if (config.emulatorHost) connectAuthEmulator(auth, `http://${config.emulatorHost}`, { disableWarnings: true });
  return auth;
}
