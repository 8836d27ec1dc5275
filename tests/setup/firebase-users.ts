import { randomBytes } from "node:crypto";
import { EMULATOR_HOST, FIREBASE_PROJECT_ID } from "./config";

const base = `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1`;

async function call(path: string, body: unknown, admin = false) {
  const response = await fetch(`${base}${path}${path.includes("?") ? "&" : "?"}key=fake-api-key`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(admin ? { Authorization: "Bearer owner" } : {}) },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`emulator ${path}: ${JSON.stringify(json)}`);
  return json;
}

export interface TestIdentity {
  uid: string;
  email: string;
  idToken: string;
  /** For signing in through the /auth page (end-to-end tests). */
  password: string;
}

/** A real account in the Firebase Auth emulator, with a real ID token. Verified unless told otherwise. */
export async function createIdentity({ verified = true, name }: { verified?: boolean; name?: string } = {}): Promise<TestIdentity> {
  const email = `user-${randomBytes(5).toString("hex")}@example.com`;
  const password = "correct-horse-battery";
  const signUp = await call("/accounts:signUp", { email, password, returnSecureToken: true, displayName: name });
  if (verified) {
    await call(`/projects/${FIREBASE_PROJECT_ID}/accounts:update`, { localId: signUp.localId, emailVerified: true }, true);
  }
  return { uid: signUp.localId, email, idToken: await signInWithPassword(email, password), password };
}

/** A fresh ID token for an emulator account, as signing in with its password gives. */
export async function signInWithPassword(email: string, password: string): Promise<string> {
  return (await call("/accounts:signInWithPassword", { email, password, returnSecureToken: true })).idToken;
}
