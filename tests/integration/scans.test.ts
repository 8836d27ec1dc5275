import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/upload-rules";
import { apiClient } from "../setup/api";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { ensureTestMedia, type TestMedia } from "../setup/media";
import { startTestServer } from "../setup/test-server";
import { waitFor } from "../setup/wait-for";

// SPEC §2, §4, §5, §9 enforced by the API: everything the Upload dialog refuses, the server refuses
// again from the stored files, with {status, error, message}, changing nothing; a scan reserves one
// credit in the ledger, atomically.
let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ReturnType<typeof apiClient>;
let media: TestMedia;
let alice: TestIdentity;
let bob: TestIdentity;

const NO_SCANS = { status: 402, error: "quota_exceeded", message: MESSAGES.noScanCredits };

async function database() {
  const { db } = await import("~/db.server");
  return db();
}

async function userIdOf(identity: TestIdentity): Promise<string> {
  const res = await api("GET", "/user", { token: identity.idToken });
  return res.json.data.user.id;
}

/** Everything a scan request may change: ledger, scan jobs, queued jobs, item statuses. */
async function snapshot() {
  const db = await database();
  const [ledger, scanJobs, items] = await Promise.all([
    db.ledgerEntry.count(),
    db.scanJob.count(),
    db.item.findMany({ select: { id: true, status: true }, orderBy: { id: "asc" } }),
  ]);
  const jobs = (await queuedScanJobs()).length;
  return { ledger, scanJobs, items, jobs };
}

/**
 * The queue's scan jobs (one of them by id): none while the queue's schema does not exist yet. The outbox's relay
 * makes it when it first hands a job over, which may be a moment after the scan request was answered.
 */
async function queuedScanJobs(id?: string): Promise<Array<{ data: { scanJobId: string }; state: string }>> {
  const db = await database();
  const [{ exists }] = await db.$queryRawUnsafe<Array<{ exists: boolean }>>(`SELECT to_regclass('pgboss.job') IS NOT NULL AS exists`);
  if (!exists) return [];
  return id
    ? db.$queryRawUnsafe(`SELECT data, state FROM pgboss.job WHERE name = 'scan' AND id = $1::uuid`, id)
    : db.$queryRawUnsafe(`SELECT data, state FROM pgboss.job WHERE name = 'scan'`);
}

async function createItem(owner: TestIdentity, uploadType: "video" | "image", name?: string): Promise<string> {
  const res = await api("POST", "/item", { token: owner.idToken, body: { model_type: "ply", upload_type: uploadType, name } });
  expect(res.status).toBe(200);
  return res.json.data.item_id;
}

async function put(url: string, body: Uint8Array) {
  const res = await fetch(url, { method: "PUT", body: new Uint8Array(body) });
  return res.status;
}

/** Uploads a video in one PUT and answers the path a scan request names. */
async function uploadVideo(owner: TestIdentity, file: string | Uint8Array) {
  const itemId = await createItem(owner, "video");
  const link = await api("GET", `/upload/video/${itemId}?filename=clip.mp4`, { token: owner.idToken });
  expect(link.status).toBe(200);
  expect(await put(link.json.data.url, typeof file === "string" ? readFileSync(file) : file)).toBe(200);
  return { itemId, path: link.json.data.path as string };
}

/** Uploads images as image-001.jpg … and answers the folder a scan request names. */
async function uploadImages(owner: TestIdentity, files: Array<string | Uint8Array>) {
  const itemId = await createItem(owner, "image");
  const folder = await api("GET", `/upload/image/${itemId}`, { token: owner.idToken });
  expect(folder.status).toBe(200);
  for (let start = 0; start < files.length; start += 16) {
    await Promise.all(
      files.slice(start, start + 16).map(async (file, offset) => {
        const name = `image-${String(start + offset + 1).padStart(3, "0")}.jpg`;
        const link = await api("GET", `/upload/image/${itemId}/file?filename=${name}`, { token: owner.idToken });
        expect(link.status).toBe(200);
        expect(link.json.data.path).toBe(`${folder.json.data.path}${name}`);
        expect(await put(link.json.data.url, typeof file === "string" ? readFileSync(file) : file)).toBe(200);
      }),
    );
  }
  return { itemId, path: folder.json.data.path as string };
}

const scanVideo = (owner: TestIdentity, itemId: string, body: Record<string, unknown>) =>
  api("POST", `/scan/video/${itemId}`, { token: owner.idToken, body });
const scanImages = (owner: TestIdentity, itemId: string, path: string) =>
  api("POST", `/scan/image/${itemId}`, { token: owner.idToken, body: { input_bucket_path: path } });

/** A refused request: the API's error shape, and nothing changed anywhere. */
async function expectRefused(request: () => Promise<{ status: number; json: any }>, expected: { status: number; error: string; message: string | RegExp }) {
  const before = await snapshot();
  const res = await request();
  expect(res.status).toBe(expected.status);
  expect(res.json.status).toBe(expected.status);
  expect(res.json.error).toBe(expected.error);
  if (typeof expected.message === "string") expect(res.json.message).toBe(expected.message);
  else expect(res.json.message).toMatch(expected.message);
  expect(await snapshot()).toEqual(before);
}

beforeAll(async () => {
  [server, media] = await Promise.all([startTestServer(), ensureTestMedia()]);
  api = apiClient(server.url);
  [alice, bob] = await Promise.all([createIdentity({ name: "Alice" }), createIdentity({ name: "Bob" })]);
}, 120_000);

afterAll(async () => {
  await server?.close();
  const { stopQueue } = await import("~/jobs/queue.server");
  await stopQueue(); // the app's queue lives in this process (the test server runs in it)
});

describe("GET /v1/user/quotas", () => {
  it("answers SPEC §3's quota fields, from the plan and the ledger", async () => {
    const res = await api("GET", "/user/quotas", { token: bob.idToken });
    expect(res.status).toBe(200);
    // Free plan (docs/decisions/004): 3 scans, 3 links, 5 annotations per model, 1 embed.
    expect(res.json.data).toEqual({
      link_quota: 3,
      link_credit: 3,
      scan_quota: 3,
      scan_credit: 3,
      topup_scan_credit: 0,
      total_scan_credit: 3,
      annotation_quota: 5,
      embed_quota: 1,
      embed_credit: 1,
    });
    // Reading twice grants once.
    await api("GET", "/user/quotas", { token: bob.idToken });
    const grants = await (await database()).ledgerEntry.count({ where: { userId: await userIdOf(bob), kind: "period_grant" } });
    expect(grants).toBe(2); // one scan grant and one link grant for this period
    expect((await api("GET", "/user/quotas")).status).toBe(401);
  });
});

describe("a video scan", () => {
  it("uploads in parts, resumes by sending only the missing part, and queues the scan for one credit", async () => {
    const bytes = readFileSync(media.landscape);
    const itemId = await createItem(alice, "video", "landscape");
    const link = await api("GET", `/upload/video/${itemId}?size=${bytes.length}&filename=landscape.mp4`, { token: alice.idToken });
    expect(link.status).toBe(200);
    const { path, part_size: partSize, part_urls: partUrls } = link.json.data as { path: string; part_size: number; part_urls: string[] };
    expect(path).toMatch(new RegExp(`^items/${itemId}/video/[0-9a-f-]{36}\\.mp4$`));
    expect(partUrls).toHaveLength(Math.ceil(bytes.length / partSize));
    expect(partUrls.length).toBeGreaterThan(1);

    // The connection drops during the last part: only part of it arrives.
    const last = partUrls.length - 1;
    for (let i = 0; i < last; i++) expect(await put(partUrls[i], bytes.subarray(i * partSize, (i + 1) * partSize))).toBe(200);
    expect(await put(partUrls[last], bytes.subarray(last * partSize, last * partSize + 1000))).toBe(200);
    const body = { duration: 2, width: 1920, height: 1080, input_bucket_path: path };
    await expectRefused(() => scanVideo(alice, itemId, body), {
      status: 409,
      error: "conflict",
      message: `The video upload is incomplete: part ${last + 1} is missing or partial.`,
    });

    // Resuming sends that part again, nothing else.
    expect(await put(partUrls[last], bytes.subarray(last * partSize))).toBe(200);
    const before = await snapshot();
    const res = await scanVideo(alice, itemId, body);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ item_id: itemId, status: "queued" });

    const item = await api("GET", `/item/${itemId}`, { token: alice.idToken });
    expect(item.json.data).toMatchObject({ status: "queued", upload_type: "video", model_type: "ply", model_url: null });
    const quotas = await api("GET", "/user/quotas", { token: alice.idToken });
    expect(quotas.json.data).toMatchObject({ scan_quota: 3, scan_credit: 2, total_scan_credit: 2 });

    const db = await database();
    const job = await db.scanJob.findUniqueOrThrow({ where: { id: res.json.data.scan_job_id } });
    expect(job).toMatchObject({ itemId, status: "queued", inputKind: "video", inputPath: path, width: 1920, height: 1080 });
    expect(job.duration).toBeCloseTo(2, 1);
    const reservation = await db.ledgerEntry.findMany({ where: { reference: job.reservationRef! } });
    expect(reservation.map((e) => [e.kind, e.bucket, e.amount])).toEqual([["reservation", "period", -1]]);
    // The pipeline's job reaches the queue once the request has committed (the outbox's relay hands it over).
    const queued = await waitFor("the scan's job in the queue", async () => {
      const rows = await queuedScanJobs(job.id);
      return rows.length > 0 ? rows : null;
    }, 10_000);
    expect(queued).toEqual([{ data: { scanJobId: job.id }, state: "created" }]);
    expect((await snapshot()).jobs).toBe(before.jobs + 1);

    // The stored video is the uploaded file, byte for byte; the parts are gone.
    const { storage } = await import("~/storage/index.server");
    expect((await storage().stat(path))?.size).toBe(bytes.length);
    expect(await storage().list(`${path}.parts`)).toEqual([]);

    // One item, one scan.
    await expectRefused(() => scanVideo(alice, itemId, body), { status: 409, error: "conflict", message: "A scan was already requested for this item." });
  });

  it("refuses a 4:3 video, whatever the request claims", async () => {
    const { itemId, path } = await uploadVideo(alice, media.fourThree);
    const message = "Only 16:9 (landscape or portrait) videos are supported.";
    await expectRefused(() => scanVideo(alice, itemId, { duration: 1, width: 1440, height: 1080, input_bucket_path: path }), {
      status: 400,
      error: "invalid_file",
      message,
    });
    await expectRefused(() => scanVideo(alice, itemId, { duration: 1, width: 1920, height: 1080, input_bucket_path: path }), {
      status: 400,
      error: "invalid_file",
      message,
    });
  });

  it("refuses more than 180 s, and takes a longer video trimmed to its first 180 s", async () => {
    const { itemId, path } = await uploadVideo(alice, media.long);
    await expectRefused(() => scanVideo(alice, itemId, { duration: 200, width: 320, height: 180, input_bucket_path: path }), {
      status: 400,
      error: "invalid_input",
      message: /^duration must be at most 180 seconds/,
    });
    await expectRefused(() => scanVideo(alice, itemId, { duration: 180.1, width: 320, height: 180, input_bucket_path: path }), {
      status: 400,
      error: "invalid_input",
      message: /^duration must be at most 180 seconds/,
    });
    const res = await scanVideo(alice, itemId, { duration: 180, width: 320, height: 180, input_bucket_path: path });
    expect(res.status).toBe(200);
    const job = await (await database()).scanJob.findUniqueOrThrow({ where: { id: res.json.data.scan_job_id } });
    expect(job.duration).toBe(180);
  });

  it("refuses a duration longer than the stored video, a non-video, and a path that is not the item's upload", async () => {
    const { itemId, path } = await uploadVideo(alice, media.portrait);
    await expectRefused(() => scanVideo(alice, itemId, { duration: 30, width: 1080, height: 1920, input_bucket_path: path }), {
      status: 400,
      error: "invalid_input",
      message: "duration (30 s) is longer than the uploaded video (1.0 s).",
    });
    await expectRefused(() => scanVideo(alice, itemId, { duration: 1, width: 1080, height: 1920, input_bucket_path: `items/${itemId}/video/other.mp4` }), {
      status: 400,
      error: "invalid_input",
      message: /^input_bucket_path is not a video upload of this item/,
    });
    const text = await uploadVideo(alice, new TextEncoder().encode("just some text, renamed clip.mp4\n".repeat(100)));
    await expectRefused(() => scanVideo(alice, text.itemId, { duration: 1, width: 1920, height: 1080, input_bucket_path: text.path }), {
      status: 400,
      error: "invalid_file",
      message: "The uploaded file is not a video (MP4, MOV, MKV, WebM or AVI).",
    });
  });

  it("hides someone else's item: 404 for the upload link and the scan request", async () => {
    const { itemId, path } = await uploadVideo(alice, media.portrait);
    const notFound = { status: 404, error: "not_found", message: "Item not found." };
    await expectRefused(() => scanVideo(bob, itemId, { duration: 1, width: 1080, height: 1920, input_bucket_path: path }), notFound);
    await expectRefused(() => api("GET", `/upload/video/${itemId}`, { token: bob.idToken }), notFound);
    await expectRefused(() => api("POST", `/scan/video/${itemId}`, { body: { duration: 1, width: 1080, height: 1920, input_bucket_path: path } }), {
      status: 401,
      error: "unauthorized",
      message: "Sign in to continue.",
    });
  });
});

describe("an image-set scan", () => {
  it("refuses 19 images, a .txt renamed .jpg and a 301st image; accepts 300, named image-001…", async () => {
    const few = await uploadImages(alice, media.images.slice(0, 19));
    await expectRefused(() => scanImages(alice, few.itemId, few.path), {
      status: 400,
      error: "invalid_file",
      message: "Number of selected images does not meet the minimum count of 20 images.",
    });

    const withText = media.images.slice(0, 20) as Array<string | Uint8Array>;
    withText[6] = new TextEncoder().encode("Meeting notes: this is a text file renamed .jpg\n".repeat(20));
    const renamed = await uploadImages(alice, withText);
    await expectRefused(() => scanImages(alice, renamed.itemId, renamed.path), {
      status: 400,
      error: "invalid_file",
      message: "image-007.jpg is not a JPEG, PNG, WebP, HEIC, TIFF or BMP image.",
    });
    await expectRefused(() => scanImages(alice, renamed.itemId, `items/${few.itemId}/images/`), {
      status: 400,
      error: "invalid_input",
      message: /^input_bucket_path is not this item's image folder/,
    });

    const full = await uploadImages(alice, media.images.slice(0, 300));
    await expectRefused(() => api("GET", `/upload/image/${full.itemId}/file?filename=image-301.jpg`, { token: alice.idToken }), {
      status: 400,
      error: "invalid_file",
      message: "Number of selected images exceeded the maximum of 300 files.",
    });
    await expectRefused(() => api("GET", `/upload/image/${full.itemId}/file?filename=photo.jpg`, { token: alice.idToken }), {
      status: 400,
      error: "invalid_input",
      message: /^filename must be image-NNN/,
    });
    const res = await scanImages(alice, full.itemId, full.path);
    expect(res.status).toBe(200);
    const item = await api("GET", `/item/${full.itemId}`, { token: alice.idToken });
    expect(item.json.data.status).toBe("queued");
  });

  it("refuses any scan once no credits remain, with SPEC's message", async () => {
    // Alice has spent her 3 free scans above (landscape, the trimmed long video, 300 images).
    const quotas = await api("GET", "/user/quotas", { token: alice.idToken });
    expect(quotas.json.data).toMatchObject({ scan_credit: 0, topup_scan_credit: 0, total_scan_credit: 0 });
    const images = await uploadImages(alice, media.images.slice(0, 20));
    await expectRefused(() => scanImages(alice, images.itemId, images.path), NO_SCANS);
    const video = await uploadVideo(alice, media.tiny);
    await expectRefused(() => scanVideo(alice, video.itemId, { duration: 1, width: 1920, height: 1080, input_bucket_path: video.path }), NO_SCANS);
  });
});

describe("cancelling and retrying a scan (the owner's controls)", () => {
  it("cancels a queued scan at once with its credit back, then retries it for a new credit; others get 404", async () => {
    const carol = await createIdentity({ name: "Carol" });
    const credits = async () => (await api("GET", "/user/quotas", { token: carol.idToken })).json.data.total_scan_credit;
    const { itemId, path } = await uploadImages(carol, media.images.slice(0, 20));
    const first = await scanImages(carol, itemId, path);
    expect(first.status).toBe(200);
    expect(await credits()).toBe(2);

    const status = await api("GET", `/scan/${itemId}`, { token: carol.idToken });
    expect(status.status).toBe(200);
    expect(status.json.data).toMatchObject({ scan_job_id: first.json.data.scan_job_id, status: "queued", input: "image", can_cancel: true, can_retry: false, metrics: null });
    // Someone else's scan does not exist for them, whatever they ask.
    for (const [method, route] of [["GET", `/scan/${itemId}`], ["POST", `/scan/${itemId}/cancel`], ["POST", `/scan/${itemId}/retry`]] as const) {
      const res = await api(method, route, { token: bob.idToken });
      expect(res.status).toBe(404);
      expect(res.json.error).toBe("not_found");
    }
    await expectRefused(() => api("POST", `/scan/${itemId}/retry`, { token: carol.idToken }), {
      status: 409,
      error: "conflict",
      message: "Only a failed or cancelled scan can be retried.",
    });

    const cancelled = await api("POST", `/scan/${itemId}/cancel`, { token: carol.idToken });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.data).toMatchObject({ status: "cancelled", error: "Cancelled by the owner.", can_cancel: false, can_retry: true });
    expect(cancelled.json.data.finished_at).not.toBeNull();
    expect(await credits()).toBe(3);
    const item = await api("GET", `/item/${itemId}`, { token: carol.idToken });
    expect(item.json.data).toMatchObject({ status: "failed", status_detail: "Scan cancelled." });
    const db = await database();
    const entries = await db.ledgerEntry.findMany({ where: { reference: `scan:${first.json.data.scan_job_id}` }, orderBy: { createdAt: "asc" } });
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([
      ["reservation", -1],
      ["release", 1],
    ]);
    await expectRefused(() => api("POST", `/scan/${itemId}/cancel`, { token: carol.idToken }), { status: 409, error: "conflict", message: "This scan is not running." });

    const retried = await api("POST", `/scan/${itemId}/retry`, { token: carol.idToken });
    expect(retried.status).toBe(200);
    expect(retried.json.data).toMatchObject({ item_id: itemId, status: "queued" });
    expect(retried.json.data.scan_job_id).not.toBe(first.json.data.scan_job_id);
    expect(await credits()).toBe(2);
    const again = await api("GET", `/scan/${itemId}`, { token: carol.idToken });
    expect(again.json.data).toMatchObject({ scan_job_id: retried.json.data.scan_job_id, status: "queued", can_cancel: true });
    const job = await db.scanJob.findUniqueOrThrow({ where: { id: retried.json.data.scan_job_id } });
    expect(job).toMatchObject({ inputKind: "image", inputPath: path, status: "queued" });
  });
});

describe("the credit ledger", () => {
  it("accepts exactly 5 of 20 parallel scan requests when 5 credits remain (3 of the period, 2 top-up)", async () => {
    const carol = await createIdentity({ name: "Carol" });
    const carolId = await userIdOf(carol);
    const { addTopupCredits } = await import("~/domain/credits.server");
    await addTopupCredits({ userId: carolId, creditType: "scan", credits: 2, reason: "test top-up", reference: "test", idempotencyKey: "test-topup-carol" });
    await addTopupCredits({ userId: carolId, creditType: "scan", credits: 2, reason: "test top-up", reference: "test", idempotencyKey: "test-topup-carol" });
    expect((await api("GET", "/user/quotas", { token: carol.idToken })).json.data).toMatchObject({
      scan_credit: 3,
      topup_scan_credit: 2,
      total_scan_credit: 5,
    });

    const uploads = await Promise.all(Array.from({ length: 20 }, () => uploadVideo(carol, media.tiny)));
    const results = await Promise.all(
      uploads.map(({ itemId, path }) => scanVideo(carol, itemId, { duration: 1, width: 1920, height: 1080, input_bucket_path: path })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(15);
    for (const r of refused) expect(r.json).toEqual(NO_SCANS);

    const db = await database();
    const sums = await db.ledgerEntry.groupBy({ by: ["bucket", "kind"], where: { userId: carolId, creditType: "scan" }, _sum: { amount: true } });
    const sum = (bucket: string, kind: string) => sums.find((s) => s.bucket === bucket && s.kind === kind)?._sum.amount ?? 0;
    expect(sum("period", "period_grant")).toBe(3);
    expect(sum("period", "reservation")).toBe(-3);
    expect(sum("topup", "topup")).toBe(2);
    expect(sum("topup", "reservation")).toBe(-2);
    const jobs = await db.scanJob.findMany({ where: { userId: carolId } });
    expect(jobs).toHaveLength(5);
    const reservations = await db.ledgerEntry.findMany({ where: { userId: carolId, kind: "reservation" } });
    expect(new Set(reservations.map((r) => r.reference))).toEqual(new Set(jobs.map((j) => j.reservationRef)));
    expect(await db.item.count({ where: { ownerId: carolId, status: "queued" } })).toBe(5);
    expect(await db.item.count({ where: { ownerId: carolId, status: "uploading" } })).toBe(15);
    expect((await api("GET", "/user/quotas", { token: carol.idToken })).json.data).toMatchObject({ total_scan_credit: 0 });
  });

  it("releases a reservation to the bucket it came from, consumes once, and both are idempotent", async () => {
    const dan = await createIdentity({ name: "Dan" });
    const danId = await userIdOf(dan);
    const { consumeCredits, releaseCredits } = await import("~/domain/credits.server");
    const first = await uploadVideo(dan, media.tiny);
    const second = await uploadVideo(dan, media.tiny);
    const a = await scanVideo(dan, first.itemId, { duration: 1, width: 1920, height: 1080, input_bucket_path: first.path });
    const b = await scanVideo(dan, second.itemId, { duration: 1, width: 1920, height: 1080, input_bucket_path: second.path });
    const refA = `scan:${a.json.data.scan_job_id}`;
    const refB = `scan:${b.json.data.scan_job_id}`;
    expect((await api("GET", "/user/quotas", { token: dan.idToken })).json.data.scan_credit).toBe(1);

    expect(await releaseCredits({ userId: danId, reference: refA, reason: "scan failed" })).toBe(true);
    expect(await releaseCredits({ userId: danId, reference: refA, reason: "scan failed" })).toBe(false);
    expect((await api("GET", "/user/quotas", { token: dan.idToken })).json.data.scan_credit).toBe(2);
    await expect(consumeCredits({ userId: danId, reference: refA, reason: "scan done" })).rejects.toThrow("already released");

    expect(await consumeCredits({ userId: danId, reference: refB, reason: "scan done" })).toBe(true);
    expect(await consumeCredits({ userId: danId, reference: refB, reason: "scan done" })).toBe(false);
    expect((await api("GET", "/user/quotas", { token: dan.idToken })).json.data.scan_credit).toBe(2);
  });

  it("gives the credit back when an item is deleted before its scan finished", async () => {
    const gus = await createIdentity({ name: "Gus" });
    const video = await uploadVideo(gus, media.tiny);
    expect((await scanVideo(gus, video.itemId, { duration: 1, width: 1920, height: 1080, input_bucket_path: video.path })).status).toBe(200);
    expect((await api("GET", "/user/quotas", { token: gus.idToken })).json.data.scan_credit).toBe(2);
    expect((await api("DELETE", `/item/${video.itemId}`, { token: bob.idToken })).status).toBe(404);
    expect((await api("GET", "/user/quotas", { token: gus.idToken })).json.data.scan_credit).toBe(2);
    expect((await api("DELETE", `/item/${video.itemId}`, { token: gus.idToken })).status).toBe(200);
    expect((await api("GET", "/user/quotas", { token: gus.idToken })).json.data.scan_credit).toBe(3);
    const kinds = await (await database()).ledgerEntry.findMany({ where: { userId: await userIdOf(gus), creditType: "scan" }, orderBy: { createdAt: "asc" } });
    expect(kinds.map((e) => [e.kind, e.amount])).toEqual([
      ["period_grant", 3],
      ["reservation", -1],
      ["release", 1],
    ]);
  });

  it("grants a new period's scans when the period rolls over; top-ups carry over", async () => {
    const erin = await createIdentity({ name: "Erin" });
    const erinId = await userIdOf(erin);
    const { addTopupCredits } = await import("~/domain/credits.server");
    await addTopupCredits({ userId: erinId, creditType: "scan", credits: 5, reason: "test", reference: "test", idempotencyKey: "test-topup-erin" });
    const video = await uploadVideo(erin, media.tiny);
    expect((await scanVideo(erin, video.itemId, { duration: 1, width: 1920, height: 1080, input_bucket_path: video.path })).status).toBe(200);
    expect((await api("GET", "/user/quotas", { token: erin.idToken })).json.data).toMatchObject({ scan_credit: 2, topup_scan_credit: 5 });

    // Move the subscription one month back: the next read is in a new period.
    const db = await database();
    const sub = await db.subscription.findUniqueOrThrow({ where: { userId: erinId } });
    const monthBack = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, Math.min(d.getUTCDate(), 28), d.getUTCHours()));
    await db.subscription.update({
      where: { userId: erinId },
      data: { currentPeriodStart: monthBack(sub.currentPeriodStart), currentPeriodEnd: new Date(Date.now() - 1000) },
    });
    await db.ledgerEntry.updateMany({ where: { userId: erinId, bucket: "period" }, data: { periodStart: monthBack(sub.currentPeriodStart) } });
    await db.ledgerEntry.updateMany({
      where: { userId: erinId, kind: "period_grant" },
      data: { idempotencyKey: null },
    });
    expect((await api("GET", "/user/quotas", { token: erin.idToken })).json.data).toMatchObject({
      scan_credit: 3,
      topup_scan_credit: 5,
      total_scan_credit: 8,
    });
    const renewed = await db.subscription.findUniqueOrThrow({ where: { userId: erinId } });
    expect(renewed.currentPeriodEnd.getTime()).toBeGreaterThan(Date.now());
  });

  it("lets an unlimited plan (scan_quota -1) scan without credits, still recording the reservation", async () => {
    const fay = await createIdentity({ name: "Fay" });
    const fayId = await userIdOf(fay);
    const db = await database();
    const pro = await db.plan.findUniqueOrThrow({ where: { planType: "pro" } });
    await db.subscription.update({ where: { userId: fayId }, data: { planId: pro.id } });
    const quotas = await api("GET", "/user/quotas", { token: fay.idToken });
    expect(quotas.json.data).toMatchObject({ scan_quota: -1, scan_credit: -1, topup_scan_credit: 0, total_scan_credit: -1 });
    for (let i = 0; i < 4; i++) {
      const video = await uploadVideo(fay, media.tiny);
      expect((await scanVideo(fay, video.itemId, { duration: 1, width: 1920, height: 1080, input_bucket_path: video.path })).status).toBe(200);
    }
    const reservations = await db.ledgerEntry.findMany({ where: { userId: fayId, kind: "reservation" } });
    expect(reservations.map((r) => r.amount)).toEqual([0, 0, 0, 0]);
  });
});

describe("POST /v1/upload/image/{id}/files (links for many photos at once)", () => {
  const names = (from: number, count: number) => Array.from({ length: count }, (_, i) => `image-${String(from + i).padStart(3, "0")}.jpg`);
  const links = (owner: TestIdentity | null, itemId: string, filenames: unknown) =>
    api("POST", `/upload/image/${itemId}/files`, { token: owner?.idToken, body: { filenames } });
  const uploadRows = async (itemId: string) => (await database()).upload.count({ where: { itemId } });

  it("signs each name once, in order, and the links take the photos that a scan then accepts", async () => {
    const gil = await createIdentity({ name: "Gil" });
    const itemId = await createItem(gil, "image");
    const folder = await api("GET", `/upload/image/${itemId}`, { token: gil.idToken });
    const first = await links(gil, itemId, names(1, 100));
    const second = await links(gil, itemId, names(101, 20));
    expect([first.status, second.status]).toEqual([200, 200]);
    const files = [...first.json.data.files, ...second.json.data.files] as Array<{ filename: string; path: string; url: string }>;
    expect(files.map((f) => f.filename)).toEqual(names(1, 120));
    expect(files.every((f) => f.path === `${folder.json.data.path}${f.filename}`)).toBe(true);
    for (const [i, link] of files.slice(0, 20).entries()) expect(await put(link.url, readFileSync(media.images[i]))).toBe(200);
    // Asking again for names already signed adds no rows; the per-file route agrees with the batch one.
    expect((await links(gil, itemId, names(1, 3))).status).toBe(200);
    expect(await uploadRows(itemId)).toBe(120);
    const single = await api("GET", `/upload/image/${itemId}/file?filename=image-001.jpg`, { token: gil.idToken });
    expect(single.json.data.path).toBe(files[0].path);
    expect((await scanImages(gil, itemId, folder.json.data.path)).status).toBe(200);
  });

  it("refuses bad names, repeats, too many at once, more than 300 in all, others' items and no sign-in, creating nothing", async () => {
    const hal = await createIdentity({ name: "Hal" });
    const itemId = await createItem(hal, "image");
    const refusals: Array<[TestIdentity | null, unknown, number, string, RegExp]> = [
      [hal, ["image-001.jpg", "photo.jpg"], 400, "invalid_input", /^filenames\.1 must be image-NNN/],
      [hal, ["image-001.jpg", "image-001.jpg"], 400, "invalid_input", /^filenames must not repeat/],
      [hal, names(1, 101), 400, "invalid_input", /filenames/],
      [hal, [], 400, "invalid_input", /filenames/],
      [hal, "image-001.jpg", 400, "invalid_input", /filenames/],
      [bob, names(1, 2), 404, "not_found", /^Item not found\.$/],
      [null, names(1, 2), 401, "unauthorized", /^Sign in to continue\.$/],
    ];
    for (const [who, filenames, status, error, message] of refusals) {
      const res = await links(who, itemId, filenames);
      expect([res.status, res.json.status, res.json.error]).toEqual([status, status, error]);
      expect(res.json.message).toMatch(message);
    }
    expect(await uploadRows(itemId)).toBe(0);
    for (let from = 1; from <= 300; from += 100) expect((await links(hal, itemId, names(from, 100))).status).toBe(200);
    const over = await links(hal, itemId, ["image-300.jpg", "image-301.jpg"]);
    expect([over.status, over.json.error, over.json.message]).toEqual([400, "invalid_file", "Number of selected images exceeded the maximum of 300 files."]);
    expect(await uploadRows(itemId)).toBe(300);
  });
});

describe("a scan's end as its worker reports it (app/domain/scan-outcomes.server.ts)", () => {
  it("is fenced by the lease: a stale worker changes nothing; the holder's progress and publication reach the owner, one credit consumed", async () => {
    const dora = await createIdentity({ name: "Dora" });
    const credits = async () => (await api("GET", "/user/quotas", { token: dora.idToken })).json.data.total_scan_credit;
    const { itemId, path } = await uploadImages(dora, media.images.slice(0, 20));
    const requested = await scanImages(dora, itemId, path);
    expect(requested.status).toBe(200);
    const scanJobId: string = requested.json.data.scan_job_id;
    const { claimJob, recordScanProgress } = await import("~/domain/scan-lease.server");
    const { LeaseLostError, recordScanPublished } = await import("~/domain/scan-outcomes.server");
    const job = (await claimJob(scanJobId, 60))!;
    expect(job).toMatchObject({ id: scanJobId, itemId, attempts: 1 });
    const lease = { jobId: scanJobId, token: job.attempts };
    const stale = { jobId: scanJobId, token: job.attempts - 1 };

    // Progress: the holder's reaches the owner's item; a stale lease's is refused and writes nothing.
    expect(await recordScanProgress(lease, itemId, { stage: "features", overall: 0.1, detail: "Finding features — 10%" })).toBe(true);
    expect(await recordScanProgress(stale, itemId, { stage: "dense", overall: 0.5, detail: "Dense stereo — 50%" })).toBe(false);
    const running = await api("GET", `/item/${itemId}`, { token: dora.idToken });
    expect(running.json.data).toMatchObject({ status: "processing", status_detail: "Finding features — 10%" });

    const published = {
      ply: { key: `items/${itemId}/scan/model-0123456789abcdef.ply`, bytes: 1234 },
      delivery: { key: `items/${itemId}/delivery/model.sog`, bytes: 321, format: "sog", coarse: null },
      mesh: { key: `items/${itemId}/scan/mesh-0123456789abcdef.glb`, bytes: 555 },
      meshLite: null,
      thumbnailKey: `items/${itemId}/thumbnail/scan-0123456789abcdef`,
      openingView: { position: [0, 0.5, 3] as [number, number, number], target: [0, 0, 0] as [number, number, number], fov: 50 },
      trained: true,
    };
    const metrics = { psnr: 25.5, splats: 1000 };
    await expect(recordScanPublished({ lease: stale, job, published, metrics })).rejects.toBeInstanceOf(LeaseLostError);
    expect((await api("GET", `/item/${itemId}`, { token: dora.idToken })).json.data.status).toBe("processing");
    expect(await credits()).toBe(2);

    await recordScanPublished({ lease, job, published, metrics });
    const item = await api("GET", `/item/${itemId}`, { token: dora.idToken });
    expect(item.json.data).toMatchObject({ status: "ready", is_preview: false, file_format: "ply", mesh_url: `/v1/item/${itemId}/file?variant=mesh` });
    // A splat scan is placed in AR from its mesh (issue 35 item 1).
    expect(item.json.data.ar).toEqual({ usdz_url: expect.stringMatching(`^/v1/item/${itemId}/ar/usdz\\?v=`), glb_url: expect.stringMatching(`^/v1/item/${itemId}/ar/glb\\?v=`) });
    expect(item.json.data.settings.camera).toMatchObject({ position: [0, 0.5, 3], target: [0, 0, 0], fov: 50 });
    const status = await api("GET", `/scan/${itemId}`, { token: dora.idToken });
    expect(status.json.data).toMatchObject({ status: "succeeded", progress: 1, metrics: { psnr: 25.5, splats: 1000 } });
    const bell = await api("GET", "/notifications", { token: dora.idToken });
    expect(bell.json.data.notifications).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "scan_finished", link: `/item/${itemId}` })]));
    // Published once: the lease ended with the scan, so a second report is refused and spends nothing.
    await expect(recordScanPublished({ lease, job, published, metrics })).rejects.toBeInstanceOf(LeaseLostError);
    expect(await credits()).toBe(2);
    const entries = await (await database()).ledgerEntry.findMany({ where: { reference: job.reservationRef! }, orderBy: { createdAt: "asc" } });
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([
      ["reservation", -1],
      ["consumption", 0],
    ]);
  });
});
