import { beforeEach, describe, expect, it, vi } from "vitest";

// Issue 17 item 12, the production path: without the Auth emulator (which always checks), Firebase
// reports a disabled, deleted or revoked account only when verifyIdToken is asked to check revocation.
// This stand-in for Firebase's token check behaves that way: the signature of the token is fine, and
// only a check of the account finds that it was disabled.
const disabledAccounts = new Set<string>();
const firebaseVerify = vi.fn(async (token: string, checkRevoked?: boolean) => {
  if (checkRevoked && disabledAccounts.has(token)) throw Object.assign(new Error("user disabled"), { code: "auth/user-disabled" });
  return { uid: token, email_verified: true };
});

vi.mock("firebase-admin/auth", () => ({ getAuth: () => ({ verifyIdToken: firebaseVerify }) }));
vi.mock("firebase-admin/app", () => ({ getApps: () => [], initializeApp: () => ({ name: "scanroom" }) }));
vi.mock("~/env.server", () => ({ env: () => ({ FIREBASE_PROJECT_ID: "demo-unit" }) }));

const { verifyIdToken } = await import("./firebase-admin.server");

beforeEach(() => disabledAccounts.clear());

describe("verifyIdToken in production", () => {
  it("accepts the token of an account that still stands", async () => {
    expect(await verifyIdToken("uid-active")).toMatchObject({ uid: "uid-active" });
  });

  it("refuses an unexpired token once its account is disabled or deleted", async () => {
    expect(await verifyIdToken("uid-gone")).not.toBeNull();
    disabledAccounts.add("uid-gone");
    expect(await verifyIdToken("uid-gone")).toBeNull();
  });
});
