import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EMULATOR_HOST, FIREBASE_PROJECT_ID } from "../setup/config";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";
import { uploadReadyModel } from "../setup/upload-model";

// What a visitor can read about other people and about the server (issue 17, items 18 and 19): no part of an
// account's email is ever shown as its public name, and the plans pages carry no developer instructions.
const glb = readFileSync(path.join(SHARED_DATA, "models/SpecularTest.glb"));

const app = serveAppForFile();
const api = app.api;

async function page(pathName: string) {
  const response = await fetch(`${app.url}${pathName}`, { redirect: "manual" });
  return { status: response.status, text: await response.text() };
}

/** The words a visitor reads: the page without its scripts, styles and tags. */
const visibleText = (html: string) =>
  html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

const localPart = (identity: TestIdentity) => identity.email.split("@")[0];

/** Gives the emulator account a profile name (as a provider would) and answers a fresh ID token that carries it. */
async function withProfileName(identity: TestIdentity, nameOf: (identity: TestIdentity) => string): Promise<TestIdentity> {
  const base = `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1`;
  const call = async (pathName: string, body: unknown, admin = false) => {
    const response = await fetch(`${base}${pathName}?key=fake-api-key`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(admin ? { Authorization: "Bearer owner" } : {}) },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return response.json();
  };
  await call(`/projects/${FIREBASE_PROJECT_ID}/accounts:update`, { localId: identity.uid, displayName: nameOf(identity) }, true);
  const signIn = await call("/accounts:signInWithPassword", { email: identity.email, password: identity.password, returnSecureToken: true });
  return { ...identity, idToken: signIn.idToken };
}

/** Every public surface that names a model's owner, read as a signed-out visitor. */
async function publicSurfaces(ownerId: string, itemId: string) {
  const itemUrl = `${app.url}/item/${itemId}`;
  return {
    "GET /v1/user/{id}": JSON.stringify((await api("GET", `/user/${ownerId}`)).json),
    "GET /v1/item/{id}": JSON.stringify((await api("GET", `/item/${itemId}`)).json),
    "GET /v1/items": JSON.stringify((await api("GET", `/items?owner=${ownerId}`)).json),
    "/u/{id}": (await page(`/u/${ownerId}`)).text,
    "/item/{id} (page and social tags)": (await page(`/item/${itemId}`)).text,
    "/embed/{id}": (await page(`/embed/${itemId}`)).text,
    "/viewer/{id}": (await page(`/viewer/${itemId}`)).text,
    "/ (Explore cards)": (await page(`/?q=${encodeURIComponent("Exposure check")}`)).text,
    "/oembed": (await page(`/oembed?format=json&url=${encodeURIComponent(itemUrl)}`)).text,
  };
}

describe("public names never expose an email (item 18)", () => {
  it("an account registered without a display name gets a neutral handle everywhere, which its owner can change", async () => {
    const owner = await createIdentity(); // no display name: the old code showed the email's local part
    const me = await api("GET", "/user", { token: owner.idToken });
    expect(me.status).toBe(200);
    const ownerId: string = me.json.data.user.id;
    const handle: string = me.json.data.user.display_name;
    expect(handle).toMatch(/^creator-[0-9a-f]{8}$/);
    expect(handle.toLowerCase()).not.toContain(localPart(owner).toLowerCase());
    // The owner still sees their own email (GET /v1/user is theirs alone).
    expect(me.json.data.user.email).toBe(owner.email);

    const itemId = await uploadReadyModel(api, owner, { bytes: glb, modelType: "glb", name: "Exposure check model", visibility: "public" });
    const surfaces = await publicSurfaces(ownerId, itemId);
    for (const [surface, text] of Object.entries(surfaces)) {
      expect(text.length, surface).toBeGreaterThan(0);
      expect(text, surface).not.toContain(localPart(owner));
      expect(text, surface).not.toContain(owner.email);
    }
    expect(surfaces["/u/{id}"]).toContain(handle);
    expect(surfaces["/item/{id} (page and social tags)"]).toContain(handle);
    expect(JSON.parse(surfaces["/oembed"]).author_name).toBe(handle);

    const renamed = await api("PATCH", "/user", { token: owner.idToken, body: { display_name: "Maker of Things" } });
    expect(renamed.status).toBe(200);
    expect((await api("GET", `/user/${ownerId}`)).json.data.user.display_name).toBe("Maker of Things");
    expect((await page(`/item/${itemId}`)).text).toContain("Maker of Things");
  });

  it("a sign-in name that is the account's email or its local part is not used as the public name", async () => {
    for (const nameOf of [(i: TestIdentity) => i.email, (i: TestIdentity) => localPart(i)]) {
      // The identity provider's profile name set to the account's own email, then to its local part.
      const owner = await withProfileName(await createIdentity(), nameOf);
      const me = await api("GET", "/user", { token: owner.idToken });
      expect(me.status).toBe(200);
      const name: string = me.json.data.user.display_name;
      expect(name).not.toContain(localPart(owner));
      expect(name).toMatch(/^creator-[0-9a-f]{8}$/);
    }
  });

  it("a real display name from sign-up is kept", async () => {
    const owner = await createIdentity({ name: "Ada Lovelace" });
    const me = await api("GET", "/user", { token: owner.idToken });
    expect(me.json.data.user.display_name).toBe("Ada Lovelace");
  });
});

describe("existing accounts named after their email (item 18 migration)", () => {
  it("get the neutral handle; real names are kept", async () => {
    const { db } = await import("~/db.server");
    const row = (email: string, displayName: string | null) =>
      db().user.create({ data: { firebaseUid: `legacy-${email}`, email, emailVerified: true, displayName } });
    const [localName, nameless, emailName, blank, real] = await Promise.all([
      row("s-1795.test@example.com", "s-1795.test"),
      row("nameless@example.com", null),
      row("full@example.com", "full@example.com"),
      row("blank@example.com", "  "),
      row("grace@example.com", "Grace Hopper"),
    ]);
    const migration = readFileSync(path.resolve("prisma/migrations/20261124123000_neutral_public_names/migration.sql"), "utf8");
    await db().$executeRawUnsafe(migration);
    const after = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).displayName;
    for (const user of [localName, nameless, emailName, blank]) {
      expect(await after(user.id)).toBe(`creator-${user.id.replace(/-/g, "").slice(0, 8)}`);
    }
    expect(await after(real.id)).toBe("Grace Hopper");
  });
});

describe("plans pages speak to visitors (item 19)", () => {
  it("without online payments, /pricing and /topup say so plainly and name no environment variables", async () => {
    for (const pathName of ["/pricing", "/topup"]) {
      const { status, text } = await page(pathName);
      expect(status, pathName).toBe(200);
      const visible = visibleText(text);
      expect(visible, pathName).toMatch(/checkout is not available yet/i);
      expect(visible, pathName).not.toMatch(/[A-Z][A-Z0-9]*_[A-Z0-9_]+|Developers:/);
    }
  });
});
