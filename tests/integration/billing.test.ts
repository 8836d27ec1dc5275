import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/upload-rules";
import { apiClient } from "../setup/api";
import { startFakeStripe, type FakeStripe } from "../setup/fake-stripe";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { sessionCookie } from "../setup/site-session";
import { startTestServer } from "../setup/test-server";
import { SHARED_DATA } from "../setup/shared-data";

// Issue 8: plans, quotas, credits and payments. The ledger under concurrency, the billing-period reset,
// Stripe Checkout and webhooks against Stripe faked at the network edge (tests/setup/fake-stripe.ts, the
// real `stripe` client, events signed by the real library), plan changes and lapses that delete nothing.
const DATA = SHARED_DATA;
const glb = readFileSync(path.join(DATA, "models/SpecularTest.glb"));

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ReturnType<typeof apiClient>;
let stripe: FakeStripe;

interface Account {
  identity: TestIdentity;
  userId: string;
  cookie: string;
}

async function domain() {
  const [{ db }, credits, months, periods, schedule] = await Promise.all([
    import("~/db.server"),
    import("~/domain/credits.server"),
    import("~/domain/calendar-months"),
    import("~/domain/billing-periods.server"),
    import("~/jobs/billing-schedule.server"),
  ]);
  return { db: db(), credits, months, periods, schedule };
}

async function signUp(name: string): Promise<Account> {
  const identity = await createIdentity({ name });
  const user = await api("GET", "/user", { token: identity.idToken });
  return { identity, userId: user.json.data.user.id, cookie: await sessionCookie(server.url, identity) };
}

const quotas = async (account: Account) => (await api("GET", "/user/quotas", { token: account.identity.idToken })).json.data;

async function page(pathName: string, cookie?: string) {
  const res = await fetch(`${server.url}${pathName}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}

/** A form POST as the browser sends it from the pricing or top-up page. */
async function postForm(pathName: string, fields: Record<string, string>, cookie?: string) {
  const res = await fetch(`${server.url}${pathName}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  return { status: res.status, location: res.headers.get("location") ?? "" };
}

/** Everything a payment event may change. */
async function billingSnapshot(userId: string) {
  const { db } = await domain();
  const [ledger, subscription, notifications, markers] = await Promise.all([
    db.ledgerEntry.findMany({ where: { userId }, orderBy: { id: "asc" } }),
    db.subscription.findUnique({ where: { userId } }),
    db.notification.count({ where: { userId } }),
    db.webhookEvent.count({ where: { source: "stripe" } }),
  ]);
  return { ledger, subscription, notifications, markers };
}

async function checkoutPackage(account: Account, credits: number) {
  const { db } = await domain();
  const pkg = await db.creditPackage.findFirstOrThrow({ where: { creditType: "scan", credits } });
  const res = await postForm("/billing/checkout", { kind: "package", package_id: pkg.id, page: "topup" }, account.cookie);
  expect(res.status).toBe(303);
  expect(res.location.startsWith(`${stripe.url}/pay/cs_`)).toBe(true);
  return { pkg, sessionId: res.location.split("/").pop()! };
}

async function checkoutPlan(account: Account, planType: string) {
  const res = await postForm("/billing/checkout", { kind: "plan", plan_type: planType, page: "pricing" }, account.cookie);
  expect(res.status).toBe(303);
  expect(res.location.startsWith(`${stripe.url}/pay/cs_`)).toBe(true);
  return res.location.split("/").pop()!;
}

async function deliverAll(events: Awaited<ReturnType<FakeStripe["completeCheckout"]>>) {
  for (const event of events) expect((await stripe.deliver(event)).status).toBe(200);
}

async function uploadPublicModel(account: Account, name: string) {
  const token = account.identity.idToken;
  const created = await api("POST", "/item", { token, body: { model_type: "glb", upload_type: "model", name } });
  const itemId: string = created.json.data.item_id;
  const link = await api("GET", `/upload/item/${itemId}?uploadType=model`, { token });
  expect((await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(glb) })).status).toBe(200);
  expect((await api("POST", `/item/${itemId}/file/size`, { token, body: { size: glb.length } })).status).toBe(200);
  expect((await api("PATCH", `/item/${itemId}`, { token, body: { visibility: "public" } })).status).toBe(200);
  return itemId;
}

/** Moves an account's current period one month into the past, entries and keys included, as time would. */
async function movePeriodBack(userId: string) {
  const { db, months } = await domain();
  const sub = await db.subscription.findUniqueOrThrow({ where: { userId } });
  const oldStart = months.addMonths(sub.currentPeriodStart, -1);
  const entries = await db.ledgerEntry.findMany({ where: { userId, bucket: "period", periodStart: sub.currentPeriodStart } });
  for (const entry of entries) {
    await db.ledgerEntry.update({
      where: { id: entry.id },
      data: { periodStart: oldStart, idempotencyKey: entry.kind === "period_grant" ? `grant:${entry.creditType}:${userId}:${oldStart.toISOString()}` : entry.idempotencyKey },
    });
  }
  await db.subscription.update({ where: { userId }, data: { currentPeriodStart: oldStart, currentPeriodEnd: sub.currentPeriodStart } });
  // The period a renewal moves to: a month on from the old start (calendar months, clamped).
  return { oldStart, next: months.periodContaining(oldStart, new Date()) };
}

beforeAll(async () => {
  stripe = await startFakeStripe();
  // Set before the app reads its configuration (once per process).
  Object.assign(process.env, { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_BASE: stripe.url });
  server = await startTestServer();
  stripe.webhookUrl = `${server.url}/webhooks/stripe`;
  api = apiClient(server.url);
});

afterAll(async () => {
  await server?.close();
  await stripe?.close();
});

describe("the credit ledger", () => {
  it("accepts exactly 5 of 20 parallel scan reservations when 5 credits remain; balance 0; the ledger adds up; 100 % is notified once", async () => {
    const carol = await signUp("Carol");
    const { db, credits } = await domain();
    await credits.addTopupCredits({ userId: carol.userId, creditType: "scan", credits: 2, reason: "test top-up", reference: "test", idempotencyKey: `test:${carol.userId}` });
    expect(await quotas(carol)).toMatchObject({ scan_quota: 3, scan_credit: 3, topup_scan_credit: 2, total_scan_credit: 5 });

    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        credits.withCreditLedger(carol.userId, (ctx) =>
          credits.reserveCredits(ctx, { creditType: "scan", amount: 1, reference: `scan:parallel-${i}`, reason: `parallel scan ${i}` }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused).toHaveLength(15);
    for (const r of refused) expect(r.reason).toMatchObject({ code: "quota_exceeded", message: MESSAGES.noScanCredits });

    expect(await quotas(carol)).toMatchObject({ scan_credit: 0, topup_scan_credit: 0, total_scan_credit: 0 });
    const entries = await db.ledgerEntry.findMany({ where: { userId: carol.userId, creditType: "scan" } });
    const sum = (filter: (e: (typeof entries)[number]) => boolean) => entries.filter(filter).reduce((n, e) => n + e.amount, 0);
    expect(sum((e) => e.kind === "period_grant")).toBe(3);
    expect(sum((e) => e.kind === "topup")).toBe(2);
    expect(sum((e) => e.kind === "reservation" && e.bucket === "period")).toBe(-3);
    expect(sum((e) => e.kind === "reservation" && e.bucket === "topup")).toBe(-2);
    expect(sum(() => true)).toBe(0);
    expect(new Set(entries.filter((e) => e.kind === "reservation").map((e) => e.reference)).size).toBe(5);

    // The free plan's 3 scans: 1 and 2 used are below 80 %, the third is 100 % — told once, with SPEC's words.
    const warnings = await db.notification.findMany({ where: { userId: carol.userId, kind: "quota_warning" } });
    expect(warnings.map((w) => [w.title, w.body])).toEqual([["You have used all 3 scans of this billing period", "Your 2 scans from top-ups are used next; your monthly scans renew with the next period."]]);
  });

  it("warns at 80 % of a plan's scans, then at 100 %, once each per period", async () => {
    const dora = await signUp("Dora");
    const { db, credits } = await domain();
    const starter = await db.plan.findUniqueOrThrow({ where: { planType: "starter" } });
    await db.subscription.update({ where: { userId: dora.userId }, data: { planId: starter.id } });
    const reserve = (i: number) =>
      credits.withCreditLedger(dora.userId, (ctx) => credits.reserveCredits(ctx, { creditType: "scan", amount: 1, reference: `scan:dora-${i}`, reason: "scan" }));
    for (let i = 0; i < 7; i++) await reserve(i);
    expect(await db.notification.count({ where: { userId: dora.userId } })).toBe(0);
    await reserve(7);
    await reserve(8);
    const eighty = await db.notification.findMany({ where: { userId: dora.userId } });
    expect(eighty.map((n) => n.title)).toEqual(["You have used 8 of your 10 scans this billing period"]);
    await reserve(9);
    const all = await db.notification.findMany({ where: { userId: dora.userId }, orderBy: { createdAt: "asc" } });
    expect(all.map((n) => [n.kind, n.title, n.body, n.link])).toEqual([
      ["quota_warning", "You have used 8 of your 10 scans this billing period", "2 scans left this period. Top up or upgrade your plan for more.", "/topup"],
      ["quota_warning", "You have used all 10 scans of this billing period", MESSAGES.noScanCredits, "/topup"],
    ]);
  });

  it("gives a failed scan's credit back, once", async () => {
    const eve = await signUp("Eve");
    const { db, credits } = await domain();
    await credits.withCreditLedger(eve.userId, (ctx) => credits.reserveCredits(ctx, { creditType: "scan", amount: 1, reference: "scan:eve-1", reason: "Video scan" }));
    expect(await quotas(eve)).toMatchObject({ scan_credit: 2, total_scan_credit: 2 });
    // What a failed scan's end does with its credit (app/domain/scan-outcomes.server.ts).
    expect(await credits.releaseCredits({ userId: eve.userId, reference: "scan:eve-1", reason: "Scan failed: too few images registered" })).toBe(true);
    expect(await credits.releaseCredits({ userId: eve.userId, reference: "scan:eve-1", reason: "Scan failed: too few images registered" })).toBe(false);
    expect(await quotas(eve)).toMatchObject({ scan_credit: 3, total_scan_credit: 3 });
    const entries = await db.ledgerEntry.findMany({ where: { userId: eve.userId, creditType: "scan" } });
    expect(entries.map((e) => [e.kind, e.amount, e.reference]).sort()).toEqual([
      ["period_grant", 3, "plan:free"],
      ["release", 1, "scan:eve-1"],
      ["reservation", -1, "scan:eve-1"],
    ]);
  });
});

describe("billing periods", () => {
  it("resets a period once however often the job runs: one grant, the rest of the old period lapses, top-ups carry over", async () => {
    const finn = await signUp("Finn");
    const { db, credits, periods } = await domain();
    await credits.addTopupCredits({ userId: finn.userId, creditType: "scan", credits: 4, reason: "test", reference: "test", idempotencyKey: `test:${finn.userId}` });
    await credits.withCreditLedger(finn.userId, (ctx) => credits.reserveCredits(ctx, { creditType: "scan", amount: 1, reference: "scan:finn-1", reason: "scan" }));
    const { oldStart, next } = await movePeriodBack(finn.userId);

    await Promise.all([periods.renewDueBillingPeriods(), periods.renewDueBillingPeriods()]);
    const again = await periods.renewDueBillingPeriods();
    expect(again.renewed).toBe(0);

    const sub = await db.subscription.findUniqueOrThrow({ where: { userId: finn.userId } });
    expect(sub.currentPeriodStart).toEqual(next.start);
    expect(sub.currentPeriodEnd).toEqual(next.end);
    const scan = await db.ledgerEntry.findMany({ where: { userId: finn.userId, creditType: "scan", bucket: "period" } });
    expect(scan.map((e) => [e.kind, e.amount, e.periodStart?.toISOString()]).sort()).toEqual(
      [
        ["expiry", -2, oldStart.toISOString()],
        ["period_grant", 3, next.start.toISOString()],
        ["period_grant", 3, oldStart.toISOString()],
        ["reservation", -1, oldStart.toISOString()],
      ].sort(),
    );
    expect(scan.find((e) => e.kind === "expiry")!.reason).toBe(`2 unused scan credits of the period from ${oldStart.toISOString().slice(0, 10)} lapsed when it ended`);
    expect(await quotas(finn)).toMatchObject({ scan_credit: 3, topup_scan_credit: 4, total_scan_credit: 7 });
  });

  it("runs the reset from a pg-boss schedule", async () => {
    const gail = await signUp("Gail");
    const { db, schedule } = await domain();
    await quotas(gail);
    const { next } = await movePeriodBack(gail.userId);
    const billing = await schedule.startBillingSchedule();
    try {
      const schedules = await billing.boss.getSchedules();
      expect(schedules.map((s: { name: string; cron: string }) => [s.name, s.cron])).toContainEqual([schedule.BILLING_QUEUE, schedule.BILLING_CRON]);
      await billing.boss.send(schedule.BILLING_QUEUE, {}); // what the cron sends each hour
      await expect
        .poll(async () => (await db.ledgerEntry.count({ where: { userId: gail.userId, kind: "period_grant", periodStart: next.start } })), { timeout: 25_000, interval: 500 })
        .toBe(2);
    } finally {
      await billing.stop();
    }
  });
});

describe("Stripe Checkout", () => {
  it("creates a package checkout with the package's price and our metadata, for the signed-in user only, granting nothing yet", async () => {
    const hana = await signUp("Hana");
    const before = await billingSnapshot(hana.userId);
    const { pkg, sessionId } = await checkoutPackage(hana, 5);

    const customerCall = stripe.requests.find((r) => r.path === "/v1/customers" && r.body.metadata?.user_id === hana.userId)!;
    expect(customerCall.idempotencyKey).toBe(`scanroom-customer-${hana.userId}`);
    const { db } = await domain();
    const user = await db.user.findUniqueOrThrow({ where: { id: hana.userId } });
    const session = stripe.sessions.get(sessionId)!;
    const call = stripe.requests.find((r) => r.path === "/v1/checkout/sessions" && r.body.metadata?.user_id === hana.userId)!;
    expect(call.body).toMatchObject({
      mode: "payment",
      customer: user.stripeCustomerId,
      client_reference_id: hana.userId,
      line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: "1500", product_data: { name: "Scanroom 5 scans" } } }],
      metadata: { kind: "package", user_id: hana.userId, package_id: pkg.id, credits: "5", credit_type: "scan" },
      success_url: `${server.url}/topup?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${server.url}/topup?checkout=cancelled`,
    });
    expect(session.amount_total).toBe(pkg.priceAmount);
    // A second checkout reuses the customer.
    await checkoutPackage(hana, 20);
    expect(stripe.requests.filter((r) => r.path === "/v1/customers" && r.body.metadata?.user_id === hana.userId)).toHaveLength(1);

    // Returning before Stripe confirms: pending, and nothing was granted.
    const back = await page(`/topup?checkout=success&session_id=${sessionId}`, hana.cookie);
    expect(back.text).toContain("We are waiting for Stripe to confirm your payment");
    const after = await billingSnapshot(hana.userId);
    expect(after.ledger.filter((e) => e.kind === "topup")).toEqual([]);
    expect(after.subscription).toEqual(before.subscription);

    // Signed out: to sign-in, no session made.
    const count = stripe.requests.length;
    const anonymous = await postForm("/billing/checkout", { kind: "package", package_id: pkg.id, page: "topup" });
    expect(anonymous).toEqual({ status: 303, location: "/auth?redirect=%2Ftopup" });
    const invalid = await postForm("/billing/checkout", { kind: "package", package_id: "not-a-uuid", page: "topup" }, hana.cookie);
    expect(invalid).toEqual({ status: 303, location: "/pricing?checkout=failed&reason=invalid" });
    expect(stripe.requests.length).toBe(count);
  });

  it("creates a plan checkout: a monthly subscription at the plan's price, metadata on the subscription", async () => {
    const ivan = await signUp("Ivan");
    const sessionId = await checkoutPlan(ivan, "growth");
    const call = stripe.requests.find((r) => r.path === "/v1/checkout/sessions" && r.body.client_reference_id === ivan.userId)!;
    expect(call.body).toMatchObject({
      mode: "subscription",
      line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: "2900", recurring: { interval: "month" }, product_data: { name: "Scanroom Growth", metadata: { plan_type: "growth" } } } }],
      subscription_data: { metadata: { user_id: ivan.userId, plan_type: "growth" } },
      metadata: { kind: "plan", user_id: ivan.userId, plan_type: "growth" },
      success_url: `${server.url}/pricing?checkout=success&plan=growth&session_id={CHECKOUT_SESSION_ID}`,
    });
    expect(stripe.sessions.get(sessionId)!.mode).toBe("subscription");
    expect(await quotas(ivan)).toMatchObject({ scan_quota: 3 }); // nothing changes before payment
    const free = await postForm("/billing/checkout", { kind: "plan", plan_type: "free", page: "pricing" }, ivan.cookie);
    expect(free.location).toBe("/pricing?checkout=failed&reason=invalid");
  });
});

describe("Stripe webhooks", () => {
  it("grants a paid package's credits once: a replayed event and a second event for the same payment change nothing", async () => {
    const jack = await signUp("Jack");
    const { sessionId } = await checkoutPackage(jack, 5);
    const [completed] = stripe.completeCheckout(sessionId);
    const first = await stripe.deliver(completed);
    expect(first).toEqual({ status: 200, body: { status: 200, data: { received: true, duplicate: false } } });
    expect(await quotas(jack)).toMatchObject({ scan_credit: 3, topup_scan_credit: 5, total_scan_credit: 8 });
    const granted = await billingSnapshot(jack.userId);
    expect(granted.ledger.filter((e) => e.kind === "topup").map((e) => [e.amount, e.reason])).toEqual([[5, "Bought 5 scans (Stripe payment)"]]);

    const replay = await stripe.deliver(completed);
    expect(replay.body.data).toEqual({ received: true, duplicate: true });
    const sameSession = stripe.event("checkout.session.async_payment_succeeded", stripe.sessions.get(sessionId));
    expect((await stripe.deliver(sameSession)).status).toBe(200);
    const after = await billingSnapshot(jack.userId);
    expect(after.ledger).toEqual(granted.ledger);
    expect(after.subscription).toEqual(granted.subscription);
    expect(await quotas(jack)).toMatchObject({ topup_scan_credit: 5 });

    // The page the checkout returns to, and the history that explains the number.
    expect((await page(`/topup?checkout=success&session_id=${sessionId}`, jack.cookie)).text).toContain("Payment confirmed: 5 scan credits added to your account.");
    expect((await page(`/topup?checkout=success&session_id=${sessionId}`, (await signUp("Other")).cookie)).text).not.toContain("Payment confirmed");
    const settings = await page("/settings", jack.cookie);
    expect(settings.text).toContain("Credit history");
    expect(settings.text).toContain("Bought 5 scans (Stripe payment)");
    expect((await page("/dashboard", jack.cookie)).text).toContain("Recent credit activity");
  });

  it("grants nothing for an unpaid (delayed) payment until Stripe confirms it", async () => {
    const kim = await signUp("Kim");
    const { sessionId } = await checkoutPackage(kim, 5);
    const [completed] = stripe.completeCheckout(sessionId, { paymentStatus: "unpaid" });
    expect((await stripe.deliver(completed)).status).toBe(200);
    expect(await quotas(kim)).toMatchObject({ topup_scan_credit: 0 });
    const session = stripe.sessions.get(sessionId)!;
    session.payment_status = "paid";
    expect((await stripe.deliver(stripe.event("checkout.session.async_payment_succeeded", session))).status).toBe(200);
    expect(await quotas(kim)).toMatchObject({ topup_scan_credit: 5 });
  });

  it("answers 400 to a bad, missing or stale signature and a tampered body, and changes nothing", async () => {
    const lena = await signUp("Lena");
    const { sessionId } = await checkoutPackage(lena, 5);
    const [completed] = stripe.completeCheckout(sessionId);
    const before = await billingSnapshot(lena.userId);
    const payload = JSON.stringify(completed, null, 2);
    const attempts = [
      stripe.sign(payload, "whsec_not_the_endpoint_secret"),
      stripe.sign(payload).replace(/v1=[0-9a-f]+/, `v1=${"0".repeat(64)}`),
      // Signed ten minutes ago: beyond Stripe's five-minute tolerance (a replayed capture).
      (await import("stripe")).default.webhooks.generateTestHeaderString({ payload, secret: stripe.webhookSecret, timestamp: Math.floor(Date.now() / 1000) - 600 }),
    ];
    for (const signature of attempts) {
      const res = await stripe.deliver(completed, { signature });
      expect(res).toEqual({ status: 400, body: { status: 400, error: "webhook_signature_invalid", message: "The Stripe-Signature header does not match the payload." } });
    }
    const missing = await fetch(stripe.webhookUrl!, { method: "POST", headers: { "Content-Type": "application/json" }, body: payload });
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe("The Stripe-Signature header is missing.");
    const tampered = JSON.stringify({ ...completed, data: { object: { ...completed.data.object, metadata: { ...completed.data.object.metadata, credits: "500" } } } }, null, 2);
    const forged = await fetch(stripe.webhookUrl!, { method: "POST", headers: { "Content-Type": "application/json", "Stripe-Signature": stripe.sign(payload) }, body: tampered });
    expect(forged.status).toBe(400);
    expect(await billingSnapshot(lena.userId)).toEqual(before);
    // The genuine delivery still works afterwards: no refused attempt recorded the event.
    expect((await stripe.deliver(completed)).status).toBe(200);
    expect(await quotas(lena)).toMatchObject({ topup_scan_credit: 5 });
  });

  it("acknowledges events it does not act on, and ignores objects our checkout did not make", async () => {
    const { db } = await domain();
    const unknown = stripe.event("customer.created", { id: "cus_testunrelated", object: "customer" });
    expect((await stripe.deliver(unknown)).status).toBe(200);
    expect(await db.webhookEvent.findUnique({ where: { id: `stripe:${unknown.id}` } })).toMatchObject({ source: "stripe", topic: "customer.created" });
    const foreign = stripe.event("checkout.session.completed", { id: "cs_testforeign", object: "checkout.session", mode: "payment", payment_status: "paid", customer: null, metadata: {} });
    const before = await db.ledgerEntry.count();
    expect((await stripe.deliver(foreign)).status).toBe(200);
    expect(await db.ledgerEntry.count()).toBe(before);
  });
});

describe("plans through Stripe: subscribe, switch, renew, lapse, recover, cancel", () => {
  it("changes plans only on what Stripe confirms, and a downgrade or lapse keeps every item and embed working", async () => {
    const { db } = await domain();
    const mia = await signUp("Mia");
    const itemId = await uploadPublicModel(mia, "Mia's chair");
    const token = mia.identity.idToken;

    // Subscribe to Growth: the subscription and the session arrive as two events; both apply one state.
    const growthSession = await checkoutPlan(mia, "growth");
    const growthEvents = stripe.completeCheckout(growthSession);
    await deliverAll(growthEvents);
    await deliverAll(growthEvents); // replayed: nothing more
    const growthSub = stripe.sessions.get(growthSession)!.subscription as string;
    let sub = await db.subscription.findUniqueOrThrow({ where: { userId: mia.userId }, include: { plan: true } });
    expect(sub).toMatchObject({ provider: "stripe", externalId: growthSub, status: "active", plan: { planType: "growth" } });
    const growthPeriod = stripe.subscriptions.get(growthSub)!.items.data[0];
    expect(sub.currentPeriodStart.getTime()).toBe(growthPeriod.current_period_start * 1000);
    expect(sub.currentPeriodEnd.getTime()).toBe(growthPeriod.current_period_end * 1000);
    expect(await quotas(mia)).toMatchObject({ scan_quota: 40, scan_credit: 40, link_quota: 100, embed_quota: 50 });
    expect((await page(`/pricing?checkout=success&plan=growth&session_id=${growthSession}`, mia.cookie)).text).toContain(
      "Payment confirmed: you are now on the Growth plan.",
    );
    const notices = await db.notification.findMany({ where: { userId: mia.userId, kind: "plan_changed" } });
    expect(notices.map((n) => n.title)).toEqual(["Your plan is now Growth"]);
    const again = await postForm("/billing/checkout", { kind: "plan", plan_type: "growth", page: "pricing" }, mia.cookie);
    expect(again.location).toBe("/pricing?checkout=failed&reason=already_on_plan");
    expect((await page(again.location, mia.cookie)).text).toContain("You are already on this plan.");

    // Growth allows removing the watermark and two registered embeds.
    expect((await api("PATCH", `/item/${itemId}/embed/watermark`, { token, body: { is_watermark_enabled: false } })).status).toBe(200);
    const embeds: string[] = [];
    for (const label of ["shop", "blog"]) embeds.push((await api("POST", `/item/${itemId}/embed`, { token, body: { label } })).json.data.id);
    expect((await page(`/embed/${itemId}`)).text).not.toContain("Made with Scanroom");

    // Switch to Starter: a new subscription; the replaced one is cancelled in Stripe with proration.
    await deliverAll(stripe.completeCheckout(await checkoutPlan(mia, "starter")));
    sub = await db.subscription.findUniqueOrThrow({ where: { userId: mia.userId }, include: { plan: true } });
    expect(sub.plan.planType).toBe("starter");
    const starterSub = sub.externalId!;
    expect(stripe.subscriptions.get(growthSub)).toMatchObject({ status: "canceled", cancellation: { prorate: "true", invoice_now: "true" } });
    // Stripe then reports the old subscription deleted: it is not the account's any more, so nothing changes.
    expect((await stripe.deliver(stripe.event("customer.subscription.deleted", stripe.subscriptions.get(growthSub))))).toMatchObject({ status: 200 });
    expect((await db.subscription.findUniqueOrThrow({ where: { userId: mia.userId }, include: { plan: true } })).plan.planType).toBe("starter");
    expect(await quotas(mia)).toMatchObject({ scan_quota: 10, scan_credit: 10 });

    // Renewal: Stripe moves the period; the new period's grant follows and the old period's rest lapses.
    const item = stripe.subscriptions.get(starterSub)!.items.data[0];
    const renewed = { ...item, current_period_start: item.current_period_end, current_period_end: item.current_period_end + 30 * 86400 };
    await stripe.deliver(stripe.updateSubscription(starterSub, { items: { object: "list", data: [renewed] } }));
    sub = await db.subscription.findUniqueOrThrow({ where: { userId: mia.userId }, include: { plan: true } });
    expect(sub.currentPeriodStart.getTime()).toBe(renewed.current_period_start * 1000);
    expect(await quotas(mia)).toMatchObject({ scan_credit: 10 });

    // The renewal payment fails: the Free plan's limits apply, nothing is deleted, the user is told.
    const scanRef = "scan:mia-1";
    const { credits } = await domain();
    await credits.withCreditLedger(mia.userId, (ctx) => credits.reserveCredits(ctx, { creditType: "scan", amount: 1, reference: scanRef, reason: "scan" }));
    await stripe.deliver(stripe.updateSubscription(starterSub, { status: "past_due" }));
    // Free's 3 scans this period, less the one already used.
    expect(await quotas(mia)).toMatchObject({ scan_quota: 3, scan_credit: 2, embed_quota: 1, link_quota: 3 });
    const lapse = await db.notification.findFirstOrThrow({ where: { userId: mia.userId, kind: "plan_changed" }, orderBy: { createdAt: "desc" } });
    expect(lapse.title).toBe("Your plan is now Free");
    expect(lapse.body).toContain("The payment for your Starter plan did not go through, so the Free plan applies until it does.");
    expect(lapse.body).toContain("Free includes: 3 scans a month; 3 links; 5 annotations per model; 1 embed; Scanroom watermark on embeds.");
    expect(lapse.body).toContain("Nothing you made is deleted");
    const expectItemAndEmbedsWork = async (watermark: boolean) => {
      expect((await api("GET", `/item/${itemId}`, { token })).json.data).toMatchObject({ id: itemId, status: "ready", visibility: "public" });
      expect((await api("GET", `/item/${itemId}`)).status).toBe(200);
      const embed = await page(`/embed/${itemId}`);
      expect(embed.status).toBe(200);
      expect(embed.text).toContain("Mia&#x27;s chair");
      expect(embed.text.includes("Made with Scanroom")).toBe(watermark);
      const listed = (await api("GET", `/item/${itemId}/embed`, { token })).json.data.embeds;
      expect(listed.map((e: { id: string }) => e.id).sort()).toEqual([...embeds].sort());
      for (const embedId of embeds) expect((await page(`/embed/${itemId}?embed_id=${embedId}`)).status).toBe(200);
    };
    await expectItemAndEmbedsWork(true);
    const settings = (await page("/settings", mia.cookie)).text;
    expect(settings).toContain('data-testid="billing-lapsed"');
    expect(settings).toMatch(/Starter(<!-- -->)? plan did not go through/);

    // The payment recovers: Starter again, this period's allowance restored less what was used.
    await stripe.deliver(stripe.updateSubscription(starterSub, { status: "active" }));
    expect(await quotas(mia)).toMatchObject({ scan_quota: 10, scan_credit: 9 });

    // Cancelled in the portal at the period's end, then ended: back on Free from now, nothing deleted.
    await stripe.deliver(stripe.updateSubscription(starterSub, { cancel_at_period_end: true }));
    expect((await db.subscription.findUniqueOrThrow({ where: { userId: mia.userId } })).cancelAtPeriodEnd).toBe(true);
    expect((await page("/pricing", mia.cookie)).text).toContain("then you move to the Free plan");
    await stripe.deliver(stripe.updateSubscription(starterSub, { status: "canceled" }, "customer.subscription.deleted"));
    sub = await db.subscription.findUniqueOrThrow({ where: { userId: mia.userId }, include: { plan: true } });
    expect(sub).toMatchObject({ provider: "none", externalId: null, status: "active", plan: { planType: "free" } });
    expect(await quotas(mia)).toMatchObject({ scan_quota: 3, scan_credit: 3, embed_quota: 1 });
    await expectItemAndEmbedsWork(true);
    expect(await db.item.count({ where: { ownerId: mia.userId } })).toBe(1);
    // Every number still adds up: the ledger's sums are what the quotas say.
    const period = await db.ledgerEntry.aggregate({ where: { userId: mia.userId, creditType: "scan", bucket: "period", periodStart: sub.currentPeriodStart }, _sum: { amount: true } });
    expect(period._sum.amount).toBe(3);
  });

  it("opens the customer portal for an account that has paid, and cancels its subscription when the account is deleted", async () => {
    const noah = await signUp("Noah");
    const none = await postForm("/billing/portal", { page: "settings" }, noah.cookie);
    expect(none.location).toBe("/settings?checkout=failed&reason=no_billing_account");
    await deliverAll(stripe.completeCheckout(await checkoutPlan(noah, "pro")));
    expect(await quotas(noah)).toMatchObject({ scan_quota: -1, scan_credit: -1, total_scan_credit: -1 });
    const portal = await postForm("/billing/portal", { page: "settings" }, noah.cookie);
    expect(portal.status).toBe(303);
    expect(portal.location.startsWith(`${stripe.url}/portal/cus_`)).toBe(true);
    expect(stripe.requests.at(-1)!.body).toMatchObject({ return_url: `${server.url}/settings` });

    const { db } = await domain();
    const subscriptionId = (await db.subscription.findUniqueOrThrow({ where: { userId: noah.userId } })).externalId!;
    expect((await api("DELETE", "/user", { token: noah.identity.idToken })).status).toBe(200);
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe("canceled");
  });
});
