import { db, type Plan, type Prisma, type Subscription, type User } from "~/db.server";
import { storefrontsShowingOwnerChanged } from "./storefront-sync.server";
import { audited, listAuditEntries, recordAudit } from "./audit.server";
import { adjustCredits, getUserQuotas, withCreditLedger } from "./credits.server";
import { invalidInput, notFound } from "~/lib/errors";
import { listLedgerHistory, presentLedgerEntry } from "./ledger-history.server";
import { uuidSchema, type CreditAdjustmentInput } from "./schemas";

/**
 * Users as admins see them: search, a user's plan, ledger and items, and the admin actions on a user
 * (credit adjustments, admin rights, disabling). A disabled user's API tokens and site session stop
 * working (auth/require-user.server.ts) and their items disappear from every public list and page
 * (items.server.ts), without deleting anything. Every action is audited.
 */
type UserWithPlan = User & { subscription: (Subscription & { plan: Plan }) | null };

export function presentAdminUser(user: UserWithPlan) {
  const plan = user.subscription?.plan;
  return {
    id: user.id,
    email: user.email,
    email_verified: user.emailVerified,
    display_name: user.displayName,
    is_admin: user.isAdmin,
    disabled_at: user.disabledAt?.toISOString() ?? null,
    disabled_reason: user.disabledReason,
    plan: plan ? { name: plan.name, plan_type: plan.planType } : null,
    created_at: user.createdAt.toISOString(),
  };
}
export type AdminUserDto = ReturnType<typeof presentAdminUser>;

const withPlan = { subscription: { include: { plan: true } } } as const;

/** Users whose email or name contains `q` (or whose id is `q`), newest first. */
export async function searchUsers({ q, limit }: { q?: string; limit: number }): Promise<AdminUserDto[]> {
  const where: Prisma.UserWhereInput = q
    ? {
        OR: [
          { email: { contains: q, mode: "insensitive" } },
          { displayName: { contains: q, mode: "insensitive" } },
          ...(uuidSchema.safeParse(q).success ? [{ id: q }] : []),
        ],
      }
    : {};
  const rows = await db().user.findMany({ where, include: withPlan, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
  return rows.map(presentAdminUser);
}

async function findUser(userId: string): Promise<User> {
  const user = await db().user.findUnique({ where: { id: userId } });
  if (!user) throw notFound("User");
  return user;
}

/**
 * One user for the admin page: plan, quotas, a page of their credit ledger (the same history they see
 * on /settings, older pages by `ledgerBefore`), their newest items, and the admin history.
 */
export async function getUserOverview({ userId, ledgerBefore }: { userId: string; ledgerBefore?: string | null }) {
  await findUser(userId);
  const quotas = await getUserQuotas({ userId });
  const [user, ledger, items, history] = await Promise.all([
    db().user.findUniqueOrThrow({ where: { id: userId }, include: withPlan }),
    listLedgerHistory({ userId, before: ledgerBefore }),
    db().item.findMany({
      where: { ownerId: userId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 100,
      select: { id: true, name: true, status: true, visibility: true, unpublishedAt: true, moderationReason: true, createdAt: true },
    }),
    listAuditEntries({ targetType: "user", targetId: userId, limit: 50 }),
  ]);
  return {
    user: presentAdminUser(user),
    subscription: user.subscription
      ? {
          status: user.subscription.status,
          provider: user.subscription.provider,
          current_period_start: user.subscription.currentPeriodStart.toISOString(),
          current_period_end: user.subscription.currentPeriodEnd.toISOString(),
        }
      : null,
    quotas,
    ledger,
    items: items.map((item) => ({
      id: item.id,
      name: item.name,
      status: item.status,
      visibility: item.visibility,
      unpublished_at: item.unpublishedAt?.toISOString() ?? null,
      moderation_reason: item.moderationReason,
      created_at: item.createdAt.toISOString(),
    })),
    history,
  };
}
export type UserOverview = Awaited<ReturnType<typeof getUserOverview>>;

/** Adds or removes credits as one `adjustment` ledger entry (or two, across buckets) with the admin's reason. */
export async function adjustUserCredits({ userId, input, actorId }: { userId: string; input: CreditAdjustmentInput; actorId: string }) {
  await findUser(userId);
  return withCreditLedger(userId, async (ctx) => {
    const adjusted = await adjustCredits(ctx, {
      creditType: input.credit_type,
      amount: input.amount,
      reason: input.reason,
      reference: `admin:${actorId}`,
    });
    await recordAudit(ctx.tx, {
      actorId,
      action: "user.credits.adjust",
      targetType: "user",
      targetId: userId,
      before: { credit_type: input.credit_type, balance: adjusted.before },
      after: { credit_type: input.credit_type, balance: adjusted.after, amount: input.amount, reason: input.reason },
    });
    return { credit_type: input.credit_type, balance: adjusted.after, entries: adjusted.entries.map(presentLedgerEntry) };
  });
}

async function changeUser({
  userId,
  actorId,
  action,
  data,
}: {
  userId: string;
  actorId: string | null;
  action: string;
  data: Prisma.UserUpdateInput;
}): Promise<AdminUserDto> {
  return audited(actorId, async (tx) => {
    const before = await tx.user.findUnique({ where: { id: userId }, include: withPlan });
    if (!before) throw notFound("User");
    const after = await tx.user.update({ where: { id: userId }, data, include: withPlan });
    const result = presentAdminUser(after);
    return { result, audit: { action, targetType: "user", targetId: userId, before: presentAdminUser(before), after: result } };
  });
}

/**
 * Grants or revokes admin rights. Admins cannot revoke their own, so there is always someone left to
 * undo a mistake. `actorId` null: the first admin, granted from the command line (scripts/grant-admin.ts).
 */
export function setUserAdmin({ userId, isAdmin, actorId }: { userId: string; isAdmin: boolean; actorId: string | null }) {
  if (!isAdmin && userId === actorId) throw invalidInput("You cannot revoke your own admin rights.");
  return changeUser({ userId, actorId, action: isAdmin ? "user.admin.grant" : "user.admin.revoke", data: { isAdmin } });
}

/**
 * Disables (with a reason) or re-enables a user. Admins cannot disable themselves. Storefronts showing the
 * user's models follow, once the change has committed (their models leave, or come back).
 */
export async function setUserDisabled({
  userId,
  disabled,
  reason,
  actorId,
}: {
  userId: string;
  disabled: boolean;
  reason?: string;
  actorId: string;
}) {
  if (disabled && userId === actorId) throw invalidInput("You cannot disable your own account.");
  const result = await changeUser({
    userId,
    actorId,
    action: disabled ? "user.disable" : "user.enable",
    data: disabled ? { disabledAt: new Date(), disabledReason: reason ?? null } : { disabledAt: null, disabledReason: null },
  });
  await storefrontsShowingOwnerChanged(userId);
  return result;
}
