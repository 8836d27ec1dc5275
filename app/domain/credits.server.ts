import { db, type CreditType, type LedgerEntry, type Plan, type Prisma } from "~/db.server";
import { scanQuotaWarning } from "~/lib/quota-warnings";
import { MESSAGES, type UserQuotas } from "~/lib/upload-rules";
import { AppError } from "~/lib/errors";
import { notify } from "./notifications.server";
import { periodContaining } from "./calendar-months";
import { ensureSubscription, LIVE_SUBSCRIPTION_STATUSES } from "./plans.server";

/**
 * The one credit ledger (SPEC §9, DESIGN §5, STYLE habit 8). Balances are never stored: they are
 * sums of append-only LedgerEntry rows, read and written inside a transaction that holds a row lock
 * on the user (SELECT … FOR UPDATE), so concurrent reservations can never spend the same credit.
 *
 * Two buckets per credit type:
 * - period: the plan's monthly grant, written lazily (once per period, idempotent) the first time
 *   the period's balance is read; what is left of it lapses when the period ends;
 * - topup: purchased credits, which carry over.
 * A reservation takes from the period bucket first. Its life: reservation (−n) → consumption (a
 * marker of amount 0: the credit is spent) or release (+n, back to the bucket and period it came
 * from). Unlimited plans (quota −1) record reservations of amount 0, so every scan has its entries.
 */
export type Tx = Prisma.TransactionClient;

export interface LedgerContext {
  tx: Tx;
  userId: string;
  plan: Plan;
  period: { start: Date; end: Date };
}

async function currentPlanAndPeriod(tx: Tx, userId: string, now = new Date()) {
  const subscription = await tx.subscription.findUniqueOrThrow({ where: { userId }, include: { plan: true } });
  let period = { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd };
  if (subscription.provider === "none" && period.end <= now) {
    period = periodContaining(subscription.currentPeriodStart, now);
    await tx.subscription.update({
      where: { id: subscription.id },
      data: { currentPeriodStart: period.start, currentPeriodEnd: period.end },
    });
  }
  const plan = LIVE_SUBSCRIPTION_STATUSES.has(subscription.status)
    ? subscription.plan
    : await tx.plan.findUniqueOrThrow({ where: { planType: "free" } });
  return { plan, period };
}

function quotaOf(plan: Plan, creditType: CreditType): number {
  return creditType === "scan" ? plan.scanQuota : plan.linkQuota;
}

/** Writes this period's plan grant unless it is there already (idempotent by its key). */
async function ensurePeriodGrant(ctx: LedgerContext, creditType: CreditType) {
  const quota = quotaOf(ctx.plan, creditType);
  if (quota <= 0) return; // -1 is unlimited, 0 grants nothing
  const periodIso = ctx.period.start.toISOString();
  await ctx.tx.ledgerEntry.createMany({
    data: {
      userId: ctx.userId,
      creditType,
      bucket: "period",
      kind: "period_grant",
      amount: quota,
      reason: `${ctx.plan.name} plan: ${quota} ${creditType} credits for the period from ${periodIso.slice(0, 10)}`,
      reference: `plan:${ctx.plan.planType}`,
      idempotencyKey: `grant:${creditType}:${ctx.userId}:${periodIso}`,
      periodStart: ctx.period.start,
    },
    skipDuplicates: true,
  });
}

/**
 * Runs `fn` in a transaction holding the user's ledger lock, with this period's grants written.
 * Every read or write of credits goes through here.
 */
export async function withCreditLedger<T>(userId: string, fn: (ctx: LedgerContext) => Promise<T>): Promise<T> {
  await ensureSubscription({ userId });
  return db().$transaction(
    async (tx) => {
      const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM "User" WHERE id = ${userId}::uuid FOR UPDATE`;
      if (locked.length === 0) throw new AppError("not_found", "User not found.");
      const { plan, period } = await currentPlanAndPeriod(tx, userId);
      const ctx: LedgerContext = { tx, userId, plan, period };
      await expireEndedPeriods(ctx);
      await ensurePeriodGrant(ctx, "scan");
      await ensurePeriodGrant(ctx, "link");
      await reconcilePeriodAllowances(ctx);
      return fn(ctx);
    },
    // Parallel requests of one user queue on the row lock: let them wait rather than fail.
    { maxWait: 30_000, timeout: 60_000 },
  );
}

/**
 * Keeps the period bucket explainable when the period changes (issue 8, decision 009): credits left
 * in an ended period lapse with an `expiry` entry (they stopped counting when the period ended; the
 * entry says so). Idempotent: with nothing left it writes nothing. Runs in `withCreditLedger`.
 */
async function expireEndedPeriods(ctx: LedgerContext) {
  const { tx, userId, period } = ctx;
  const ended = await tx.ledgerEntry.groupBy({
    by: ["creditType", "periodStart"],
    where: { userId, bucket: "period", periodStart: { lt: period.start } },
    _sum: { amount: true },
    having: { amount: { _sum: { gt: 0 } } },
  });
  for (const row of ended) {
    const left = row._sum.amount ?? 0;
    const from = row.periodStart!.toISOString().slice(0, 10);
    await tx.ledgerEntry.create({
      data: {
        userId,
        creditType: row.creditType,
        bucket: "period",
        kind: "expiry",
        amount: -left,
        reason: `${left} unused ${row.creditType} ${left === 1 ? "credit" : "credits"} of the period from ${from} lapsed when it ended`,
        reference: `period:${row.periodStart!.toISOString()}`,
        periodStart: row.periodStart,
      },
    });
  }
}

/**
 * When the plan in force changes within a period (an upgrade, a lapse, a payment that recovers), an
 * `adjustment` with reference `plan:<type>` brings this period's allowance to the new plan's quota;
 * what was already used stays used, so a downgrade never goes below zero (issue 8, decision 009).
 * Idempotent: with nothing to do it writes nothing. Runs in `withCreditLedger`, after the grants.
 */
async function reconcilePeriodAllowances(ctx: LedgerContext) {
  const { tx, userId, plan, period } = ctx;
  const planEntries = await tx.ledgerEntry.groupBy({
    by: ["creditType", "kind"],
    where: { userId, bucket: "period", periodStart: period.start, kind: { in: ["period_grant", "adjustment"] }, reference: { startsWith: "plan:" } },
    _sum: { amount: true },
  });
  for (const creditType of ["scan", "link"] as const) {
    const quota = quotaOf(plan, creditType);
    const mine = planEntries.filter((row) => row.creditType === creditType);
    // No grant yet: ensurePeriodGrant writes the plan's (unlimited and 0 write none).
    if (quota === -1 || !mine.some((row) => row.kind === "period_grant")) continue;
    const allowance = mine.reduce((sum, row) => sum + (row._sum.amount ?? 0), 0);
    let delta = quota - allowance;
    if (delta < 0) delta = Math.max(delta, -(await creditBalances(ctx, creditType)).period);
    if (delta === 0) continue;
    await tx.ledgerEntry.create({
      data: {
        userId,
        creditType,
        bucket: "period",
        kind: "adjustment",
        amount: delta,
        reason: `Plan in force is now ${plan.name}: this period's ${creditType} allowance goes from ${allowance} to ${quota}${
          allowance - quota > -delta ? " (credits already used stay used)" : ""
        }`,
        reference: `plan:${plan.planType}`,
        periodStart: period.start,
      },
    });
  }
}

/**
 * After a scan reservation: tells the user once per period when 80 % and when 100 % of the plan's
 * scans are used (issue 8), in the reservation's transaction (a refused scan notifies nobody).
 */
async function warnWhenScanQuotaRunsLow(ctx: LedgerContext) {
  const balance = await creditBalances(ctx, "scan");
  const warning = scanQuotaWarning({ quota: ctx.plan.scanQuota, periodLeft: balance.period, topupLeft: balance.topup });
  if (!warning) return;
  await notify(
    {
      userId: ctx.userId,
      kind: "quota_warning",
      title: warning.title,
      body: warning.body,
      link: "/topup",
      dedupeKey: `quota:scan:${warning.level}:${ctx.userId}:${ctx.period.start.toISOString()}`,
    },
    ctx.tx,
  );
}

/** Remaining credits in each bucket: this period's grant (less what it paid for) and top-ups. */
export async function creditBalances(ctx: LedgerContext, creditType: CreditType): Promise<{ period: number; topup: number }> {
  const sums = await ctx.tx.ledgerEntry.groupBy({
    by: ["bucket"],
    where: {
      userId: ctx.userId,
      creditType,
      OR: [{ bucket: "topup" }, { bucket: "period", periodStart: ctx.period.start }],
    },
    _sum: { amount: true },
  });
  const of = (bucket: "period" | "topup") => sums.find((s) => s.bucket === bucket)?._sum.amount ?? 0;
  return { period: Math.max(0, of("period")), topup: Math.max(0, of("topup")) };
}

function noCreditsMessage(creditType: CreditType) {
  return creditType === "scan" ? MESSAGES.noScanCredits : "You have used all your available links for this billing period.";
}

/**
 * Reserves `amount` credits for `reference` (e.g. `scan:<scanJobId>`), period bucket first. Throws
 * `quota_exceeded` and writes nothing when too few remain. Call inside `withCreditLedger`.
 */
export async function reserveCredits(
  ctx: LedgerContext,
  input: { creditType: CreditType; amount: number; reference: string; reason: string },
): Promise<{ unlimited: boolean; entries: LedgerEntry[] }> {
  const base = { userId: ctx.userId, creditType: input.creditType, kind: "reservation" as const, reference: input.reference };
  if (quotaOf(ctx.plan, input.creditType) === -1) {
    const entry = await ctx.tx.ledgerEntry.create({
      data: {
        ...base,
        bucket: "period",
        amount: 0,
        reason: `${input.reason} (unlimited plan)`,
        idempotencyKey: `reserve:${input.reference}:period`,
        periodStart: ctx.period.start,
      },
    });
    return { unlimited: true, entries: [entry] };
  }
  const balance = await creditBalances(ctx, input.creditType);
  if (balance.period + balance.topup < input.amount) throw new AppError("quota_exceeded", noCreditsMessage(input.creditType));
  const fromPeriod = Math.min(balance.period, input.amount);
  const fromTopup = input.amount - fromPeriod;
  const entries: LedgerEntry[] = [];
  if (fromPeriod > 0) {
    entries.push(
      await ctx.tx.ledgerEntry.create({
        data: {
          ...base,
          bucket: "period",
          amount: -fromPeriod,
          reason: input.reason,
          idempotencyKey: `reserve:${input.reference}:period`,
          periodStart: ctx.period.start,
        },
      }),
    );
  }
  if (fromTopup > 0) {
    entries.push(
      await ctx.tx.ledgerEntry.create({
        data: { ...base, bucket: "topup", amount: -fromTopup, reason: input.reason, idempotencyKey: `reserve:${input.reference}:topup` },
      }),
    );
  }
  if (input.creditType === "scan") await warnWhenScanQuotaRunsLow(ctx);
  return { unlimited: false, entries };
}

/**
 * Settles a reservation inside a ledger transaction, so a caller can commit it together with the
 * status change that decides it (a scan's success or failure). Returns false when it was already
 * settled the same way; throws when there is nothing to settle or it went the other way.
 */
export async function settleReservation(
  ctx: LedgerContext,
  input: { reference: string; kind: "consumption" | "release"; reason: string },
): Promise<boolean> {
  const { tx, userId } = ctx;
  const entries = await tx.ledgerEntry.findMany({ where: { userId, reference: input.reference } });
  const reservations = entries.filter((e) => e.kind === "reservation");
  if (reservations.length === 0) throw new AppError("not_found", `No credit reservation ${input.reference}.`);
  const settled = entries.find((e) => e.kind === "consumption" || e.kind === "release");
  if (settled) {
    if (settled.kind === input.kind) return false; // already done: safe to call twice
    throw new AppError("conflict", `The reservation ${input.reference} was already ${settled.kind === "release" ? "released" : "consumed"}.`);
  }
  for (const reservation of reservations) {
    await tx.ledgerEntry.create({
      data: {
        userId,
        creditType: reservation.creditType,
        bucket: reservation.bucket,
        kind: input.kind,
        amount: input.kind === "release" ? -reservation.amount : 0,
        reason: input.reason,
        reference: input.reference,
        idempotencyKey: `${input.kind}:${input.reference}:${reservation.bucket}`,
        periodStart: reservation.periodStart,
      },
    });
  }
  return true;
}

function settle(input: { userId: string; reference: string; kind: "consumption" | "release"; reason: string }): Promise<boolean> {
  return withCreditLedger(input.userId, (ctx) => settleReservation(ctx, input));
}

/** Marks a reservation spent (a scan succeeded). Idempotent. */
export function consumeCredits(input: { userId: string; reference: string; reason: string }) {
  return settle({ ...input, kind: "consumption" });
}

/** Gives a reservation back to the bucket and period it came from (a scan failed or was cancelled). Idempotent. */
export function releaseCredits(input: { userId: string; reference: string; reason: string }) {
  return settle({ ...input, kind: "release" });
}

/** Adds purchased credits, which carry over between periods. Idempotent by `idempotencyKey`. */
export async function addTopupCredits(input: {
  userId: string;
  creditType: CreditType;
  credits: number;
  reason: string;
  reference: string;
  idempotencyKey: string;
}): Promise<void> {
  if (!Number.isInteger(input.credits) || input.credits <= 0) throw new AppError("invalid_input", "credits must be a positive whole number");
  await withCreditLedger(input.userId, async ({ tx }) => {
    await tx.ledgerEntry.createMany({
      data: {
        userId: input.userId,
        creditType: input.creditType,
        bucket: "topup",
        kind: "topup",
        amount: input.credits,
        reason: input.reason,
        reference: input.reference,
        idempotencyKey: input.idempotencyKey,
      },
      skipDuplicates: true,
    });
  });
}

/**
 * An admin's correction (ledger kind `adjustment`, with its reason). Added credits go to the top-up
 * bucket, so they carry over; removed ones come from this period's grant first, then top-ups, and
 * never more than the user has. Call inside `withCreditLedger` (the caller records the audit entry
 * in the same transaction). Returns the balance before and after.
 */
export async function adjustCredits(
  ctx: LedgerContext,
  input: { creditType: CreditType; amount: number; reason: string; reference: string },
): Promise<{ before: number; after: number; entries: LedgerEntry[] }> {
  if (!Number.isInteger(input.amount) || input.amount === 0) throw new AppError("invalid_input", "amount must be a whole number other than 0");
  const balance = await creditBalances(ctx, input.creditType);
  const before = balance.period + balance.topup;
  const base = { userId: ctx.userId, creditType: input.creditType, kind: "adjustment" as const, reason: input.reason, reference: input.reference };
  const entries: LedgerEntry[] = [];
  if (input.amount > 0) {
    entries.push(await ctx.tx.ledgerEntry.create({ data: { ...base, bucket: "topup", amount: input.amount } }));
    return { before, after: before + input.amount, entries };
  }
  const remove = -input.amount;
  if (remove > before) {
    throw new AppError("invalid_input", `amount would take ${remove} ${input.creditType} credits; the user has ${before}`);
  }
  const fromPeriod = Math.min(balance.period, remove);
  if (fromPeriod > 0) {
    entries.push(
      await ctx.tx.ledgerEntry.create({ data: { ...base, bucket: "period", amount: -fromPeriod, periodStart: ctx.period.start } }),
    );
  }
  if (remove > fromPeriod) {
    entries.push(await ctx.tx.ledgerEntry.create({ data: { ...base, bucket: "topup", amount: -(remove - fromPeriod) } }));
  }
  return { before, after: before - remove, entries };
}

export type { UserQuotas };

/** SPEC §3 Quotas. -1 means unlimited (for scan_credit and total_scan_credit too, when scan_quota is -1). */
export async function getUserQuotas({ userId }: { userId: string }): Promise<UserQuotas> {
  return withCreditLedger(userId, async (ctx) => {
    const scan = await creditBalances(ctx, "scan");
    const link = await creditBalances(ctx, "link");
    const activeEmbeds = await ctx.tx.embed.count({ where: { ownerId: userId, revokedAt: null } });
    const { plan } = ctx;
    const unlimitedScans = plan.scanQuota === -1;
    return {
      link_quota: plan.linkQuota,
      link_credit: plan.linkQuota === -1 ? -1 : link.period + link.topup,
      scan_quota: plan.scanQuota,
      scan_credit: unlimitedScans ? -1 : scan.period,
      topup_scan_credit: scan.topup,
      total_scan_credit: unlimitedScans ? -1 : scan.period + scan.topup,
      annotation_quota: plan.annotationQuota,
      embed_quota: plan.embedQuota,
      embed_credit: plan.embedQuota === -1 ? -1 : Math.max(0, plan.embedQuota - activeEmbeds),
    };
  });
}
