import { describe, expect, it } from "vitest";
import { EMULATOR_HOST, FIREBASE_PROJECT_ID } from "../setup/config";
import { createIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";

// Issue 17 item 12: a disabled or deleted Firebase account stops working at once (ID tokens are
// verified with revocation checks), and a deleted account is never recreated by a token of its identity.

const app = serveAppForFile();
const api = app.api;

const adminBase = `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/projects/${FIREBASE_PROJECT_ID}`;

async function emulatorAdmin(path: string, body: unknown) {
  const response = await fetch(`${adminBase}${path}?key=fake-api-key`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: "Bearer owner" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json();
}

async function signIn(email: string, password: string): Promise<string> {
  const response = await fetch(`http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { idToken: string }).idToken;
}

async function userRowsFor(firebaseUid: string) {
  const { db } = await import("~/db.server");
  return db().user.count({ where: { firebaseUid } });
}

describe("accounts that Firebase no longer stands behind", () => {
  it("refuses a still-unexpired token once the Firebase account is disabled", async () => {
    const dora = await createIdentity();
    expect((await api("GET", "/user", { token: dora.idToken })).status).toBe(200);
    await emulatorAdmin("/accounts:update", { localId: dora.uid, disableUser: true });
    const res = await api("GET", "/user", { token: dora.idToken });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ status: 401, error: "unauthorized" });
  });

  it("refuses a still-unexpired token once the Firebase account is deleted, and creates no user row", async () => {
    const eve = await createIdentity();
    expect((await api("GET", "/user", { token: eve.idToken })).status).toBe(200);
    expect(await userRowsFor(eve.uid)).toBe(1);
    expect((await api("DELETE", "/user", { token: eve.idToken })).status).toBe(200);
    const res = await api("GET", "/user", { token: eve.idToken });
    expect(res.status).toBe(401);
    expect(await userRowsFor(eve.uid)).toBe(0);
  });

  it("never recreates a deleted account, even while Firebase still signs its identity in", async () => {
    const fay = await createIdentity();
    expect((await api("GET", "/user", { token: fay.idToken })).status).toBe(200);
    expect((await api("DELETE", "/user", { token: fay.idToken })).status).toBe(200);
    // The identity comes back in Firebase (as when deleting it there failed): same uid, fresh token.
    await emulatorAdmin("/accounts", { localId: fay.uid, email: fay.email, password: fay.password, emailVerified: true });
    const token = await signIn(fay.email, fay.password);
    for (const [method, path] of [["GET", "/user"], ["POST", "/item"]] as const) {
      const res = await api(method, path, { token, ...(method === "POST" ? { body: { model_type: "glb", upload_type: "model" } } : {}) });
      expect(res.status).toBe(401);
      expect(res.json.error).toBe("unauthorized");
    }
    expect(await userRowsFor(fay.uid)).toBe(0);
  });

  it("gives an account whose row has no subscription the free plan on its next call", async () => {
    const gus = await createIdentity();
    expect((await api("GET", "/user", { token: gus.idToken })).status).toBe(200);
    const { db } = await import("~/db.server");
    await db().subscription.deleteMany({ where: { user: { firebaseUid: gus.uid } } });
    const user = await api("GET", "/user", { token: gus.idToken });
    expect(user.status).toBe(200);
    expect(await db().subscription.count({ where: { user: { firebaseUid: gus.uid }, plan: { planType: "free" } } })).toBe(1);
    expect(await userRowsFor(gus.uid)).toBe(1);
  });
});
