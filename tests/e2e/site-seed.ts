// Node-side helpers for tests/e2e/site.spec.ts. Data the browser cannot create goes through the real
// domain functions against the e2e server's own database (tests/e2e/server.ts: scanroom_e2e_${E2E_PORT});
// everything else goes through the real HTTP API with real emulator accounts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { databaseUrl } from "../setup/config";
import { createIdentity } from "../setup/firebase-users";
import { SHARED_DATA } from "../setup/shared-data";

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;
const MODEL = readFileSync(path.join(SHARED_DATA, "models/SpecularTest.glb"));

let domainModules: Promise<{
  announcements: typeof import("~/domain/announcements.server");
  notifications: typeof import("~/domain/notifications.server");
}> | null = null;

/** The app's own domain modules, bound to the e2e database (set before they read the environment). */
function domain() {
  if (!domainModules) {
    process.env.DATABASE_URL = databaseUrl(`scanroom_e2e_${PORT}`);
    process.env.LOG_LEVEL = "error";
    domainModules = Promise.all([import("~/domain/announcements.server"), import("~/domain/notifications.server")]).then(
      ([announcements, notifications]) => ({ announcements, notifications }),
    );
  }
  return domainModules;
}

export async function replaceAnnouncements(rows: Parameters<typeof import("~/domain/announcements.server").createAnnouncement>[0][]) {
  const { announcements } = await domain();
  for (const existing of await announcements.listAllAnnouncements()) await announcements.deleteAnnouncement({ id: existing.id });
  const created = [];
  for (const row of rows) created.push(await announcements.createAnnouncement(row));
  return created;
}

export async function notifyUser(input: Parameters<typeof import("~/domain/notifications.server").notify>[0]) {
  const { notifications } = await domain();
  return notifications.notify(input);
}

/** Puts a user on a plan, as a paid subscription would (the payment providers are not reachable from tests). */
export async function setUserPlan(userId: string, planType: "free" | "starter" | "growth" | "pro") {
  await domain(); // binds the e2e database
  const { db } = await import("~/db.server");
  const plan = await db().plan.findUniqueOrThrow({ where: { planType } });
  await db().subscription.update({ where: { userId }, data: { planId: plan.id, status: "active" } });
}

/** Makes the account with this email an admin, as `npm run admin:grant` does (the first admin is made outside the site). */
export async function grantAdmin(email: string) {
  await domain(); // binds the domain modules to the e2e database
  const [{ db }, { setUserAdmin }] = await Promise.all([import("~/db.server"), import("~/domain/admin-users.server")]);
  const user = await db().user.findFirstOrThrow({ where: { email } });
  await setUserAdmin({ userId: user.id, isAdmin: true, actorId: null });
}

/**
 * Makes a splat item look like a finished scan with a textured mesh (what the scan worker publishes,
 * issue 14): the mesh is another uploaded item's GLB, which the scan item then also points at.
 */
export async function attachScanMesh({ scanItemId, meshItemId }: { scanItemId: string; meshItemId: string }) {
  await domain(); // binds the e2e database
  const { db } = await import("~/db.server");
  const mesh = await db().item.findUniqueOrThrow({ where: { id: meshItemId }, select: { fileKey: true, fileSize: true } });
  await db().item.update({
    where: { id: scanItemId },
    data: { uploadType: "image", meshKey: mesh.fileKey, meshSize: mesh.fileSize, meshLiteKey: mesh.fileKey, meshLiteSize: mesh.fileSize },
  });
}

export async function disconnect() {
  if (!domainModules) return;
  const { disconnectDb } = await import("~/db.server");
  await disconnectDb();
}

/** A /v1 call as `token`'s account (signed out without one); answers `data`, throws on anything but 200. */
export async function callApi(method: string, pathName: string, token?: string, body?: unknown) {
  const response = await fetch(`${BASE_URL}/v1${pathName}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (response.status !== 200) throw new Error(`${method} ${pathName}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

export interface Creator {
  token: string;
  userId: string;
  name: string;
}

/** A verified emulator account that has called the API once (so our user row exists). */
export async function createCreator(name: string): Promise<Creator> {
  const identity = await createIdentity({ name });
  const { user } = await callApi("GET", "/user", identity.idToken);
  return { token: identity.idToken, userId: user.id, name };
}

/** A .glb model uploaded through the real API flow, then given its visibility and category. */
export async function uploadModel(
  creator: Creator,
  { name, visibility = "public", categorySlug }: { name: string; visibility?: "public" | "unlisted" | "private"; categorySlug?: string },
) {
  const { item_id: itemId } = await callApi("POST", "/item", creator.token, { model_type: "glb", upload_type: "model", name });
  const link = await callApi("GET", `/upload/item/${itemId}?uploadType=model`, creator.token);
  const put = await fetch(link.url, { method: "PUT", body: new Uint8Array(MODEL) });
  if (!put.ok) throw new Error(`PUT failed: ${put.status}`);
  await callApi("POST", `/item/${itemId}/file/size`, creator.token, { size: MODEL.length });
  let categoryId: string | null = null;
  if (categorySlug) {
    const categories: Array<{ id: string; slug: string }> = await callApi("GET", "/categories");
    categoryId = categories.find((c) => c.slug === categorySlug)!.id;
  }
  await callApi("PATCH", `/item/${itemId}`, creator.token, { visibility, ...(categoryId ? { category_id: categoryId } : {}) });
  return itemId as string;
}

/** Anonymous visits of the model page: each counts one view on the server. */
export async function viewItem(itemId: string, times: number) {
  for (let i = 0; i < times; i++) {
    const response = await fetch(`${BASE_URL}/item/${itemId}`);
    if (!response.ok) throw new Error(`view ${itemId}: ${response.status}`);
    await response.arrayBuffer();
  }
}
