import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";
import { sessionCookie } from "../setup/site-session";

// The admin area (issue 9): every /v1/admin endpoint and page, through the real built app over HTTP,
// real emulator accounts and a real database. Admin rights come from our database (SPEC §6).

const app = serveAppForFile();
const api = app.api;
let admin: TestIdentity;
let member: TestIdentity;
let creator: TestIdentity;
let adminId: string;
let memberId: string;
let creatorId: string;

async function database() {
  const { db } = await import("~/db.server");
  return db();
}

async function userIdOf(identity: TestIdentity): Promise<string> {
  const res = await api("GET", "/user", { token: identity.idToken });
  expect(res.status).toBe(200);
  return res.json.data.user.id;
}

async function page(pathName: string, cookie?: string) {
  const response = await fetch(`${app.url}${pathName}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
  return { status: response.status, location: response.headers.get("location"), text: await response.text() };
}

/** An item made through the real API (no file needed for visibility rules), with the given visibility. */
async function createItem(owner: TestIdentity, name: string, visibility: "public" | "unlisted" | "private" = "public") {
  const created = await api("POST", "/item", { token: owner.idToken, body: { model_type: "glb", upload_type: "model", name } });
  expect(created.status).toBe(200);
  const itemId: string = created.json.data.item_id;
  expect((await api("PATCH", `/item/${itemId}`, { token: owner.idToken, body: { visibility } })).status).toBe(200);
  return itemId;
}

const catGlb = readFileSync(path.join(SHARED_DATA, "models/cat.glb"));

/** A public model with its file uploaded through a signed link, so it is ready (only ready models can be featured). */
async function readyPublicItem(owner: TestIdentity, name: string) {
  const itemId = await createItem(owner, name);
  const link = await api("GET", `/upload/item/${itemId}?uploadType=model`, { token: owner.idToken });
  expect((await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(catGlb) })).status).toBe(200);
  expect((await api("POST", `/item/${itemId}/file/size`, { token: owner.idToken, body: { size: catGlb.length } })).status).toBe(200);
  return itemId;
}

const auditCount = async () => (await database()).auditLog.count();

/** Runs one admin call and checks it wrote exactly one audit entry, by the admin, with that action. */
async function expectOneAuditEntry<T>(action: string, call: () => Promise<T>) {
  const before = await auditCount();
  const result = await call();
  expect(await auditCount(), `audit entries after ${action}`).toBe(before + 1);
  const entry = await (await database()).auditLog.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
  expect(entry).toMatchObject({ action, actorId: adminId });
  return { result, entry };
}

beforeAll(async () => {
  [admin, member, creator] = await Promise.all([
    createIdentity({ name: "Ada Admin" }),
    createIdentity({ name: "Max Member" }),
    createIdentity({ name: "Cleo Creator" }),
  ]);
  [adminId, memberId, creatorId] = await Promise.all([userIdOf(admin), userIdOf(member), userIdOf(creator)]);
  // The first admin is made outside the API (scripts/grant-admin.ts does the same through the domain).
  await (await database()).user.update({ where: { id: adminId }, data: { isAdmin: true } });
});

describe("access", () => {
  it("every admin endpoint answers 401 signed out and 403 to a signed-in non-admin, and changes nothing", async () => {
    const db = await database();
    const announcement = await api("POST", "/admin/announcements", { token: admin.idToken, body: { content: "Access check" } });
    const category = await db.category.findFirstOrThrow();
    const itemId = await createItem(creator, "Access item");
    const id = announcement.json.data.id;
    const endpoints: Array<[string, string, unknown?]> = [
      ["GET", "/admin/announcements"],
      ["POST", "/admin/announcements", { content: "Sneaky" }],
      ["PUT", `/admin/announcements/${id}`, { content: "Changed" }],
      ["DELETE", `/admin/announcements/${id}`],
      ["PUT", "/admin/announcements/reorder", { announcementIds: [id] }],
      ["GET", "/admin/categories"],
      ["POST", "/admin/categories", { name: "Sneaky" }],
      ["PUT", `/admin/categories/${category.id}`, { name: "Changed" }],
      ["DELETE", `/admin/categories/${category.id}`],
      ["PUT", "/admin/categories/reorder", { categoryIds: [category.id] }],
      ["GET", "/admin/users"],
      ["GET", `/admin/users/${creatorId}`],
      ["POST", `/admin/users/${creatorId}/credits`, { credit_type: "scan", amount: 5, reason: "Sneaky" }],
      ["PUT", `/admin/users/${memberId}/admin`, { is_admin: true }],
      ["PUT", `/admin/users/${creatorId}/disabled`, { disabled: true, reason: "Sneaky" }],
      ["GET", "/admin/items"],
      ["POST", `/admin/items/${itemId}/unpublish`, { reason: "Sneaky" }],
      ["POST", `/admin/items/${itemId}/restore`],
      ["POST", `/admin/items/${itemId}/feature`],
      ["POST", `/admin/items/${itemId}/unfeature`],
      ["GET", "/admin/audit"],
      ["GET", "/admin/contact-messages"],
    ];
    const auditBefore = await auditCount();
    const ledgerBefore = await db.ledgerEntry.count({ where: { userId: creatorId } });
    for (const [method, path, body] of endpoints) {
      const signedOut = await api(method, path, { body });
      expect(signedOut.status, `${method} ${path} signed out`).toBe(401);
      expect(signedOut.json).toMatchObject({ status: 401, error: "unauthorized" });
      const forbidden = await api(method, path, { token: member.idToken, body });
      expect(forbidden.status, `${method} ${path} as a member`).toBe(403);
      expect(forbidden.json).toMatchObject({ status: 403, error: "forbidden" });
    }
    expect(await auditCount()).toBe(auditBefore);
    expect(await db.announcement.findUniqueOrThrow({ where: { id } })).toMatchObject({ content: "Access check" });
    expect(await db.category.findUniqueOrThrow({ where: { id: category.id } })).toMatchObject({ name: category.name });
    expect(await db.user.findUniqueOrThrow({ where: { id: memberId } })).toMatchObject({ isAdmin: false });
    expect(await db.user.findUniqueOrThrow({ where: { id: creatorId } })).toMatchObject({ disabledAt: null });
    expect(await db.item.findUniqueOrThrow({ where: { id: itemId } })).toMatchObject({ unpublishedAt: null });
    expect(await db.ledgerEntry.count({ where: { userId: creatorId } })).toBe(ledgerBefore);
    expect(await db.announcement.count({ where: { content: "Sneaky" } })).toBe(0);
  });

  it("admin pages send visitors to sign in, show non-admins a 404, and open for admins", async () => {
    const [adminCookie, memberCookie] = await Promise.all([sessionCookie(app.url, admin), sessionCookie(app.url, member)]);
    const pages = ["/admin", "/admin/announcements", "/admin/categories", "/admin/users", `/admin/users/${creatorId}`, "/admin/moderation", "/admin/audit"];
    for (const path of pages) {
      const visitor = await page(path);
      expect(visitor.status, path).toBe(302);
      expect(visitor.location).toBe(`/auth?redirect=${encodeURIComponent(path)}`);
      expect((await page(path, memberCookie)).status, `${path} as a member`).toBe(404);
      expect((await page(path, adminCookie)).status, `${path} as an admin`).toBe(200);
    }
    expect((await page(`/admin/users/${randomUUID()}`, adminCookie)).status).toBe(404);
  });

  it("names every response with a request id and the server's time", async () => {
    const res = await api("GET", "/announcements");
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("server-timing")).toMatch(new RegExp(`^app;dur=\\d+(\\.\\d)?, request;desc="${id}"$`));
    const other = await api("GET", "/announcements");
    expect(other.headers.get("x-request-id")).not.toBe(id);
  });
});

describe("announcements", () => {
  it("create, update, reorder and delete, each with one audit entry holding before and after", async () => {
    const db = await database();
    await db.announcement.deleteMany();
    const create = (content: string, extra: object = {}) =>
      expectOneAuditEntry("announcement.create", () => api("POST", "/admin/announcements", { token: admin.idToken, body: { content, ...extra } }));

    const { result: a, entry: created } = await create("<strong>Alpha</strong>", { background_color: "#fef3c7", text_color: "#78350f" });
    expect(a.status).toBe(200);
    expect(a.json.data).toMatchObject({ content: "<strong>Alpha</strong>", background_color: "#fef3c7", text_color: "#78350f", is_active: true, is_closable: true, order: 0 });
    expect(created).toMatchObject({ targetType: "announcement", targetId: a.json.data.id, before: null });
    expect(created.after).toMatchObject({ content: "<strong>Alpha</strong>" });
    const b = (await create("Bravo", { is_closable: false })).result.json.data;
    const c = (await create("Charlie", { is_active: false })).result.json.data;
    // Without an order, each new one goes last; SPEC's defaults apply to colours (null).
    expect([b.order, c.order]).toEqual([1, 2]);
    expect(b).toMatchObject({ background_color: null, text_color: null, is_closable: false });

    const { result: updated, entry: updateEntry } = await expectOneAuditEntry("announcement.update", () =>
      api("PUT", `/admin/announcements/${b.id}`, { token: admin.idToken, body: { content: "Bravo <em>two</em>", text_color: "rgb(30, 58, 138)" } }),
    );
    expect(updated.json.data).toMatchObject({ content: "Bravo <em>two</em>", text_color: "rgb(30, 58, 138)", is_closable: false });
    expect(updateEntry.before).toMatchObject({ content: "Bravo", text_color: null });
    expect(updateEntry.after).toMatchObject({ content: "Bravo <em>two</em>", text_color: "rgb(30, 58, 138)" });

    const { result: reordered, entry: reorderEntry } = await expectOneAuditEntry("announcement.reorder", () =>
      api("PUT", "/admin/announcements/reorder", { token: admin.idToken, body: { announcementIds: [c.id, b.id, a.json.data.id] } }),
    );
    expect(reordered.status).toBe(200);
    expect(reorderEntry.before).toEqual([a.json.data.id, b.id, c.id]);
    expect(reorderEntry.after).toEqual([c.id, b.id, a.json.data.id]);
    const all = await api("GET", "/admin/announcements", { token: admin.idToken });
    expect(all.json.data.map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.json.data.id]);
    // Visitors see the active ones in the new order; the inactive one is not served.
    const visible = await api("GET", "/announcements");
    expect(visible.json.data.map((x: { content: string }) => x.content)).toEqual(["Bravo <em>two</em>", "<strong>Alpha</strong>"]);

    const { entry: deleted } = await expectOneAuditEntry("announcement.delete", () =>
      api("DELETE", `/admin/announcements/${c.id}`, { token: admin.idToken }),
    );
    expect(deleted.before).toMatchObject({ id: c.id, content: "Charlie" });
    expect(deleted.after).toBeNull();
    expect(await db.announcement.count({ where: { id: c.id } })).toBe(0);
  });

  it("refuses bad payloads with 400 (unknown ids 404) and changes nothing", async () => {
    const db = await database();
    await db.announcement.deleteMany();
    const ids: string[] = [];
    for (const content of ["One", "Two", "Three"]) {
      ids.push((await api("POST", "/admin/announcements", { token: admin.idToken, body: { content } })).json.data.id);
    }
    const snapshot = async () => (await db.announcement.findMany({ orderBy: { id: "asc" } })).map(({ updatedAt: _u, ...row }) => row);
    const before = await snapshot();
    const auditBefore = await auditCount();
    const bad: Array<[string, string, unknown, number, string]> = [
      ["POST", "/admin/announcements", { background_color: "#fff" }, 400, "content"],
      ["POST", "/admin/announcements", { content: "" }, 400, "content"],
      ["POST", "/admin/announcements", { content: "<script>alert(1)</script>" }, 400, "content"],
      ["POST", "/admin/announcements", { content: "Hi", background_color: "url(https://evil.test/x.png)" }, 400, "background_color"],
      ["POST", "/admin/announcements", { content: "Hi", is_active: "yes" }, 400, "is_active"],
      ["POST", "/admin/announcements", { content: "Hi", style: "x" }, 400, "style"],
      ["PUT", "/admin/announcements/not-a-uuid", { content: "Changed" }, 400, "id"],
      ["PUT", `/admin/announcements/${ids[0]}`, {}, 400, "nothing to update"],
      ["PUT", `/admin/announcements/${ids[0]}`, { content: "<img src=x onerror=alert(1)>" }, 400, "content"],
      ["PUT", `/admin/announcements/${randomUUID()}`, { content: "Changed" }, 404, "Announcement not found"],
      ["DELETE", "/admin/announcements/not-a-uuid", undefined, 400, "id"],
      ["DELETE", `/admin/announcements/${randomUUID()}`, undefined, 404, "Announcement not found"],
      ["PUT", "/admin/announcements/reorder", { announcementIds: [ids[2], ids[1], ids[0], randomUUID()] }, 400, "unknown ids"],
      ["PUT", "/admin/announcements/reorder", { announcementIds: [ids[2], ids[1], ids[0], ids[1]] }, 400, "more than once"],
      ["PUT", "/admin/announcements/reorder", { announcementIds: [ids[2], ids[1]] }, 400, "missing"],
      ["PUT", "/admin/announcements/reorder", { announcementIds: [ids[2], ids[1], "nope"] }, 400, "announcementIds.2"],
      ["PUT", "/admin/announcements/reorder", { announcementIds: ids.join(",") }, 400, "announcementIds"],
      ["PUT", "/admin/announcements/reorder", {}, 400, "announcementIds"],
    ];
    for (const [method, path, body, status, mentions] of bad) {
      const res = await api(method, path, { token: admin.idToken, body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(res.json.message, `${method} ${path} ${JSON.stringify(body)}`).toContain(mentions);
    }
    expect(await snapshot()).toEqual(before);
    expect(await auditCount()).toBe(auditBefore);
  });

  it("never lets XSS through: not when saved, not when served, not on the admin page", async () => {
    const db = await database();
    await db.announcement.deleteMany();
    const payloads = [
      `Hello <img src=x onerror="window.__xss1=1"> <script>window.__xss2=1</script>`,
      `<a href="javascript:window.__xss3=1">click</a> <a href=" JaVaScRiPt:window.__xss4=1">again</a>`,
      `<svg onload="window.__xss5=1"><text>svg</text></svg> <iframe src="javascript:window.__xss6=1"></iframe> text`,
      `<p style="background:url(javascript:window.__xss7=1)" onmouseover="window.__xss8=1">styled</p>`,
      `<a href="//evil.example/__xss9">protocol-relative</a> <form action="/x"><button formaction="javascript:window.__xss10=1">go</button></form>`,
    ];
    const ids: string[] = [];
    for (const content of payloads) {
      const res = await api("POST", "/admin/announcements", { token: admin.idToken, body: { content } });
      expect(res.status, content).toBe(200);
      ids.push(res.json.data.id);
    }
    const updated = await api("PUT", `/admin/announcements/${ids[0]}`, { token: admin.idToken, body: { content: `Edited <b onclick="window.__xss11=1">bold</b>` } });
    expect(updated.json.data.content).toBe("Edited <b>bold</b>");
    // A row written around the API (old data, a manual fix) is sanitised when served too.
    await db.announcement.create({ data: { content: `Legacy <img src=x onerror="window.__xss12=1">row`, order: 99 } });

    const stored = (await db.announcement.findMany()).filter((row) => ids.includes(row.id)).map((row) => row.content);
    const served = JSON.stringify((await api("GET", "/announcements")).json.data);
    const admins = JSON.stringify((await api("GET", "/admin/announcements", { token: admin.idToken })).json.data);
    const adminPage = (await page("/admin/announcements", await sessionCookie(app.url, admin))).text;
    for (const [where, text] of [["stored", stored.join("\n")], ["served", served], ["admin API", admins]] as const) {
      expect(text, where).not.toMatch(/__xss/);
      expect(text, where).not.toMatch(/javascript:|onerror|onload|onclick|onmouseover|<iframe|<svg|<form|evil\.example/i);
    }
    // The admin page renders the banners on the server: none of the payloads' markers reach it.
    expect(adminPage).toContain("Legacy row");
    expect(adminPage).not.toMatch(/__xss|evil\.example/);
    expect(served).toContain("Legacy row");
    expect(served).toContain("protocol-relative");
  });
});

describe("categories", () => {
  it("create, rename, reorder and delete (its items keep working, uncategorised), each audited", async () => {
    const db = await database();
    const { result: created } = await expectOneAuditEntry("category.create", () =>
      api("POST", "/admin/categories", { token: admin.idToken, body: { name: "Jewellery & watches" } }),
    );
    expect(created.json.data).toMatchObject({ name: "Jewellery & watches", slug: "jewellery-and-watches" });
    const categoryId: string = created.json.data.id;
    const duplicate = await api("POST", "/admin/categories", { token: admin.idToken, body: { name: "Other name", slug: "jewellery-and-watches" } });
    expect(duplicate.status).toBe(409);

    const { entry: renamed } = await expectOneAuditEntry("category.update", () =>
      api("PUT", `/admin/categories/${categoryId}`, { token: admin.idToken, body: { name: "Jewellery" } }),
    );
    expect(renamed.before).toMatchObject({ name: "Jewellery & watches" });
    expect(renamed.after).toMatchObject({ name: "Jewellery", slug: "jewellery-and-watches" });

    const listed = (await api("GET", "/admin/categories", { token: admin.idToken })).json.data as Array<{ id: string }>;
    const reversed = listed.map((c) => c.id).reverse();
    const auditBefore = await auditCount();
    for (const categoryIds of [[...reversed, randomUUID()], [...reversed, reversed[0]], reversed.slice(1)]) {
      expect((await api("PUT", "/admin/categories/reorder", { token: admin.idToken, body: { categoryIds } })).status).toBe(400);
    }
    expect(await auditCount()).toBe(auditBefore);
    await expectOneAuditEntry("category.reorder", () => api("PUT", "/admin/categories/reorder", { token: admin.idToken, body: { categoryIds: reversed } }));
    expect((await api("GET", "/categories")).json.data.map((c: { id: string }) => c.id)).toEqual(reversed);

    const itemId = await createItem(creator, "Ring");
    expect((await api("PATCH", `/item/${itemId}`, { token: creator.idToken, body: { category_id: categoryId } })).status).toBe(200);
    const { result: deleted, entry } = await expectOneAuditEntry("category.delete", () =>
      api("DELETE", `/admin/categories/${categoryId}`, { token: admin.idToken }),
    );
    expect(deleted.json.data).toEqual({ items_uncategorised: 1 });
    expect(entry.before).toMatchObject({ name: "Jewellery", item_count: 1 });
    const item = await api("GET", `/item/${itemId}`, { token: creator.idToken });
    expect(item.status).toBe(200);
    expect(item.json.data.category_id).toBeNull();
    expect(await db.category.count({ where: { id: categoryId } })).toBe(0);
    expect((await api("PUT", `/admin/categories/${categoryId}`, { token: admin.idToken, body: { name: "Gone" } })).status).toBe(404);
  });
});

describe("users", () => {
  it("are found by email or name, with plan, quotas, ledger and items", async () => {
    const itemId = await createItem(creator, "Creator's vase", "private");
    const byEmail = await api("GET", `/admin/users?q=${encodeURIComponent(creator.email.slice(0, 12).toUpperCase())}`, { token: admin.idToken });
    expect(byEmail.json.data.map((u: { id: string }) => u.id)).toEqual([creatorId]);
    const byName = await api("GET", "/admin/users?q=cleo%20cre", { token: admin.idToken });
    expect(byName.json.data.map((u: { id: string }) => u.id)).toContain(creatorId);
    expect(byName.json.data.map((u: { id: string }) => u.id)).not.toContain(memberId);
    const detail = await api("GET", `/admin/users/${creatorId}`, { token: admin.idToken });
    expect(detail.status).toBe(200);
    expect(detail.json.data.user).toMatchObject({ id: creatorId, email: creator.email, is_admin: false, disabled_at: null, plan: { plan_type: "free" } });
    expect(detail.json.data.quotas).toHaveProperty("total_scan_credit");
    expect(detail.json.data.ledger.entries.some((e: { kind: string }) => e.kind === "period_grant")).toBe(true);
    expect(detail.json.data.items.map((i: { id: string }) => i.id)).toContain(itemId);
    const html = (await page(`/admin/users?q=${encodeURIComponent(creator.email)}`, await sessionCookie(app.url, admin))).text;
    expect(html).toContain(creator.email);
    expect((await api("GET", `/admin/users/${randomUUID()}`, { token: admin.idToken })).status).toBe(404);
  });

  it("adjust credits as one `adjustment` ledger entry with its reason, never below zero", async () => {
    const db = await database();
    const quotas = async () => (await api("GET", "/user/quotas", { token: creator.idToken })).json.data;
    const start = (await quotas()).total_scan_credit as number;
    const { result, entry } = await expectOneAuditEntry("user.credits.adjust", () =>
      api("POST", `/admin/users/${creatorId}/credits`, { token: admin.idToken, body: { credit_type: "scan", amount: 5, reason: "Goodwill for a failed scan" } }),
    );
    expect(result.json.data).toMatchObject({ credit_type: "scan", balance: start + 5 });
    expect(entry).toMatchObject({ targetType: "user", targetId: creatorId, before: { balance: start }, after: { balance: start + 5, amount: 5 } });
    expect((await quotas()).total_scan_credit).toBe(start + 5);
    const rows = await db.ledgerEntry.findMany({ where: { userId: creatorId, kind: "adjustment" } });
    expect(rows).toEqual([expect.objectContaining({ amount: 5, reason: "Goodwill for a failed scan", bucket: "topup", creditType: "scan" })]);

    await expectOneAuditEntry("user.credits.adjust", () =>
      api("POST", `/admin/users/${creatorId}/credits`, { token: admin.idToken, body: { credit_type: "scan", amount: -3, reason: "Duplicate grant" } }),
    );
    expect((await quotas()).total_scan_credit).toBe(start + 2);

    const ledgerBefore = await db.ledgerEntry.count({ where: { userId: creatorId } });
    const auditBefore = await auditCount();
    for (const body of [
      { credit_type: "scan", amount: -(start + 3), reason: "Too many" },
      { credit_type: "scan", amount: 0, reason: "Nothing" },
      { credit_type: "scan", amount: 1.5, reason: "Half" },
      { credit_type: "scan", amount: 2 },
      { credit_type: "scan", amount: 2, reason: " " },
      { credit_type: "gold", amount: 2, reason: "Unknown type" },
    ]) {
      const res = await api("POST", `/admin/users/${creatorId}/credits`, { token: admin.idToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api("POST", `/admin/users/${randomUUID()}/credits`, { token: admin.idToken, body: { credit_type: "scan", amount: 1, reason: "Nobody" } })).status).toBe(404);
    expect(await db.ledgerEntry.count({ where: { userId: creatorId } })).toBe(ledgerBefore);
    expect(await auditCount()).toBe(auditBefore);
    expect((await quotas()).total_scan_credit).toBe(start + 2);
  });

  it("grant and revoke admin rights, but never one's own", async () => {
    await expectOneAuditEntry("user.admin.grant", () => api("PUT", `/admin/users/${memberId}/admin`, { token: admin.idToken, body: { is_admin: true } }));
    expect((await api("GET", "/admin/announcements", { token: member.idToken })).status).toBe(200);
    const { entry } = await expectOneAuditEntry("user.admin.revoke", () =>
      api("PUT", `/admin/users/${memberId}/admin`, { token: admin.idToken, body: { is_admin: false } }),
    );
    expect(entry.before).toMatchObject({ is_admin: true });
    expect(entry.after).toMatchObject({ is_admin: false });
    expect((await api("GET", "/admin/announcements", { token: member.idToken })).status).toBe(403);

    const auditBefore = await auditCount();
    const self = await api("PUT", `/admin/users/${adminId}/admin`, { token: admin.idToken, body: { is_admin: false } });
    expect(self.status).toBe(400);
    expect((await api("PUT", `/admin/users/${memberId}/admin`, { token: admin.idToken, body: { is_admin: "yes" } })).status).toBe(400);
    expect(await auditCount()).toBe(auditBefore);
    expect((await api("GET", "/admin/users", { token: admin.idToken })).status).toBe(200);
  });

  it("disabling stops the user's API token and site session and hides their public items; enabling undoes it", async () => {
    const itemId = await createItem(creator, "Disabled owner's model");
    const cookie = await sessionCookie(app.url, creator);
    expect((await api("GET", `/item/${itemId}`)).status).toBe(200);
    expect((await page("/dashboard", cookie)).status).toBe(200);
    expect((await api("GET", `/items?owner=${creatorId}&status=uploading`)).json.data.items.map((i: { id: string }) => i.id)).toContain(itemId);

    const auditBefore = await auditCount();
    expect((await api("PUT", `/admin/users/${creatorId}/disabled`, { token: admin.idToken, body: { disabled: true } })).status).toBe(400);
    expect((await api("PUT", `/admin/users/${adminId}/disabled`, { token: admin.idToken, body: { disabled: true, reason: "Myself" } })).status).toBe(400);
    expect(await auditCount()).toBe(auditBefore);

    const { entry } = await expectOneAuditEntry("user.disable", () =>
      api("PUT", `/admin/users/${creatorId}/disabled`, { token: admin.idToken, body: { disabled: true, reason: "Spam uploads" } }),
    );
    expect(entry.before).toMatchObject({ disabled_at: null });
    expect(entry.after).toMatchObject({ disabled_reason: "Spam uploads" });
    const refused = await api("GET", "/user", { token: creator.idToken });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe("account_disabled");
    expect((await api("POST", "/item", { token: creator.idToken, body: { model_type: "glb", upload_type: "model" } })).status).toBe(403);
    expect((await page("/dashboard", cookie)).location).toBe("/auth?redirect=%2Fdashboard");
    expect((await api("GET", `/item/${itemId}`)).status).toBe(404);
    expect((await api("GET", `/items?owner=${creatorId}&status=uploading`)).json.data.items).toEqual([]);

    await expectOneAuditEntry("user.enable", () => api("PUT", `/admin/users/${creatorId}/disabled`, { token: admin.idToken, body: { disabled: false } }));
    expect((await api("GET", "/user", { token: creator.idToken })).status).toBe(200);
    expect((await page("/dashboard", cookie)).status).toBe(200);
    expect((await api("GET", `/item/${itemId}`)).status).toBe(200);
  });
});

describe("moderation", () => {
  it("unpublishing hides a public item from everyone but its owner, who sees the reason; restoring brings it back", async () => {
    const itemId = await createItem(creator, "Questionable statue");
    const before = await api("GET", "/admin/items?state=published", { token: admin.idToken });
    expect(before.json.data.map((i: { id: string }) => i.id)).toContain(itemId);

    const { result, entry } = await expectOneAuditEntry("item.unpublish", () =>
      api("POST", `/admin/items/${itemId}/unpublish`, { token: admin.idToken, body: { reason: "Copyrighted artwork" } }),
    );
    expect(result.json.data).toMatchObject({ id: itemId, moderation_reason: "Copyrighted artwork", owner: { id: creatorId } });
    expect(entry).toMatchObject({ targetType: "item", targetId: itemId, before: { unpublished_at: null }, after: { moderation_reason: "Copyrighted artwork" } });
    expect((await api("GET", `/item/${itemId}`)).status).toBe(404);
    expect((await api("GET", `/item/${itemId}`, { token: member.idToken })).status).toBe(404);
    const own = await api("GET", `/item/${itemId}`, { token: creator.idToken });
    expect(own.status).toBe(200);
    expect(own.json.data.moderation_reason).toBe("Copyrighted artwork");
    const notes = (await api("GET", "/notifications", { token: creator.idToken })).json.data.notifications;
    expect(notes[0]).toMatchObject({ kind: "moderation", body: "Copyrighted artwork", link: `/item/${itemId}` });
    const unpublished = await api("GET", "/admin/items?state=unpublished", { token: admin.idToken });
    expect(unpublished.json.data.map((i: { id: string }) => i.id)).toContain(itemId);

    const auditBefore = await auditCount();
    const privateId = await createItem(creator, "Private sketch", "private");
    const refusals: Array<[string, unknown, number]> = [
      [`/admin/items/${itemId}/unpublish`, { reason: "Again" }, 409],
      [`/admin/items/${privateId}/unpublish`, { reason: "Private" }, 404],
      [`/admin/items/${privateId}/restore`, undefined, 409],
      [`/admin/items/${randomUUID()}/unpublish`, { reason: "Nothing" }, 404],
      [`/admin/items/not-a-uuid/unpublish`, { reason: "Bad id" }, 400],
      [`/admin/items/${itemId}/unpublish`, {}, 400],
    ];
    for (const [path, body, status] of refusals) expect((await api("POST", path, { token: admin.idToken, body })).status, path).toBe(status);
    expect(await auditCount()).toBe(auditBefore);

    await expectOneAuditEntry("item.restore", () => api("POST", `/admin/items/${itemId}/restore`, { token: admin.idToken }));
    const restored = await api("GET", `/item/${itemId}`);
    expect(restored.status).toBe(200);
    expect((await api("GET", `/item/${itemId}`, { token: creator.idToken })).json.data.moderation_reason).toBeNull();
  });

  it("lists contact messages, newest first, and the audit log with who did what", async () => {
    for (const subject of ["First question", "Second question"]) {
      const sent = await api("POST", "/contact", { body: { name: "Visitor", email: "visitor@example.com", subject, message: "How do I scan a shoe in good light?" } });
      expect(sent.status).toBe(200);
    }
    const messages = await api("GET", "/admin/contact-messages", { token: admin.idToken });
    expect(messages.json.data.slice(0, 2).map((m: { subject: string }) => m.subject)).toEqual(["Second question", "First question"]);
    const html = (await page("/admin/moderation", await sessionCookie(app.url, admin))).text;
    expect(html).toContain("Second question");

    const audit = await api("GET", "/admin/audit?limit=5", { token: admin.idToken });
    expect(audit.json.data).toHaveLength(5);
    expect(audit.json.data[0]).toMatchObject({ action: "item.restore", actor: { id: adminId, email: admin.email } });
    const userHistory = await api("GET", `/admin/audit?target_type=user&target_id=${creatorId}`, { token: admin.idToken });
    expect(userHistory.json.data.every((e: { target_id: string }) => e.target_id === creatorId)).toBe(true);
    expect(userHistory.json.data.map((e: { action: string }) => e.action)).toContain("user.disable");
  });

  it("featuring puts models first in the featured sort, audit-logged, with the owner told; unfeaturing undoes it", async () => {
    const word = `feat${Date.now().toString(36)}`;
    const names = ["one", "two", "three", "four", "five"].map((n) => `${word} ${n}`);
    const ids: string[] = [];
    for (const name of names) ids.push(await readyPublicItem(creator, name));
    const sorted = async (limit: number) => {
      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const res = await api("GET", `/items?q=${word}&sort=featured&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
        expect(res.status).toBe(200);
        pages.push(res.json.data.items.map((i: { name: string }) => i.name.replace(`${word} `, "")));
        cursor = res.json.data.next_cursor;
      } while (cursor);
      return pages;
    };
    // Nothing featured: the featured sort is the newest first.
    expect((await sorted(10)).flat()).toEqual(["five", "four", "three", "two", "one"]);

    const { result, entry } = await expectOneAuditEntry("item.feature", () => api("POST", `/admin/items/${ids[1]}/feature`, { token: admin.idToken }));
    expect(result.json.data).toMatchObject({ id: ids[1], is_featured: true });
    expect(entry).toMatchObject({ targetType: "item", targetId: ids[1], before: { featured_at: null } });
    await expectOneAuditEntry("item.feature", () => api("POST", `/admin/items/${ids[0]}/feature`, { token: admin.idToken }));
    const notes = (await api("GET", "/notifications", { token: creator.idToken })).json.data.notifications;
    expect(notes[0]).toMatchObject({ kind: "featured", title: `"${word} one" is featured on Scanroom`, link: `/item/${ids[0]}` });

    // Most recently featured first, then the rest newest first; the same order whatever the page size.
    const expected = ["one", "two", "five", "four", "three"];
    expect((await sorted(10)).flat()).toEqual(expected);
    expect(await sorted(2)).toEqual([["one", "two"], ["five", "four"], ["three"]]);
    expect(await sorted(1)).toEqual(expected.map((name) => [name]));
    expect((await sorted(3)).flat()).toEqual(expected);
    // The other sorts do not change.
    const newest = await api("GET", `/items?q=${word}`);
    expect(newest.json.data.items.map((i: { name: string }) => i.name.replace(`${word} `, ""))).toEqual(["five", "four", "three", "two", "one"]);
    expect(newest.json.data.items.find((i: { id: string }) => i.id === ids[1])).toMatchObject({ is_featured: true });

    const auditBefore = await auditCount();
    const privateId = await createItem(creator, `${word} private`, "private");
    const draftLike = await createItem(creator, `${word} not ready`); // public but still uploading
    const refusals: Array<[string, number, string]> = [
      [`/admin/items/${ids[0]}/feature`, 409, "This model is already featured."],
      [`/admin/items/${privateId}/feature`, 409, "Only a public, ready model that is not unpublished can be featured."],
      [`/admin/items/${draftLike}/feature`, 409, "Only a public, ready model that is not unpublished can be featured."],
      [`/admin/items/${ids[2]}/unfeature`, 409, "This model is not featured."],
      [`/admin/items/${randomUUID()}/feature`, 404, "Item not found"],
    ];
    for (const [path, status, message] of refusals) {
      const res = await api("POST", path, { token: admin.idToken });
      expect(res.status, path).toBe(status);
      expect(res.json.message, path).toContain(message);
    }
    expect(await auditCount()).toBe(auditBefore);

    // A featured model made private drops out of the public lists, and is back when public again.
    await api("PATCH", `/item/${ids[0]}`, { token: creator.idToken, body: { visibility: "private" } });
    expect((await sorted(10)).flat()).toEqual(["two", "five", "four", "three"]);
    await api("PATCH", `/item/${ids[0]}`, { token: creator.idToken, body: { visibility: "public" } });

    for (const id of [ids[0], ids[1]]) {
      await expectOneAuditEntry("item.unfeature", () => api("POST", `/admin/items/${id}/unfeature`, { token: admin.idToken }));
    }
    expect((await sorted(10)).flat()).toEqual(["five", "four", "three", "two", "one"]);
  });
});
