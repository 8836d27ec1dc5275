import { db, type Notification, type Prisma } from "~/db.server";

/**
 * Notifications (the header's bell): scan finished, scan failed, quota warnings, announcements, moderation,
 * plan changes, a model featured by an admin.
 * Persisted per user; every query is scoped by the user id. Producers (the scan worker, credits,
 * admin announcements) call `notify`; a dedupe key makes a repeated event a no-op.
 */
export const NOTIFICATION_KINDS = ["scan_finished", "scan_failed", "quota_warning", "announcement", "moderation", "plan_changed", "featured"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

const LIST_LIMIT = 30;

export function presentNotification(row: Notification) {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    read: row.readAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}
export type NotificationDto = ReturnType<typeof presentNotification>;

/**
 * Records a notification for one user. With a dedupeKey, the same event is stored once. `client` lets a
 * producer write it in its own transaction (a ledger or webhook transaction), so it exists exactly when
 * the event does.
 */
export async function notify(input: {
  userId: string;
  kind: NotificationKind;
  title: string;
  body?: string;
  /** A same-site path such as /item/{id}. */
  link?: string;
  dedupeKey?: string;
}, client: Pick<Prisma.TransactionClient, "notification"> = db()): Promise<NotificationDto> {
  const data = {
    userId: input.userId,
    kind: input.kind,
    title: input.title.slice(0, 200),
    body: input.body?.slice(0, 1000) ?? null,
    link: input.link && input.link.startsWith("/") && !input.link.startsWith("//") ? input.link : null,
    dedupeKey: input.dedupeKey ?? null,
  };
  const row = input.dedupeKey
    ? await client.notification.upsert({ where: { dedupeKey: input.dedupeKey }, create: data, update: {} })
    : await client.notification.create({ data });
  return presentNotification(row);
}

/** The newest notifications of a user and how many are unread. */
export async function listNotifications({ userId }: { userId: string }) {
  const [rows, unread] = await Promise.all([
    db().notification.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: LIST_LIMIT }),
    db().notification.count({ where: { userId, readAt: null } }),
  ]);
  return { notifications: rows.map(presentNotification), unread_count: unread };
}

/** Marks the given notifications (or all of them) read for this user only. Returns how many changed. */
export async function markNotificationsRead({ userId, ids }: { userId: string; ids?: string[] }) {
  const { count } = await db().notification.updateMany({
    where: { userId, readAt: null, ...(ids ? { id: { in: ids } } : {}) },
    data: { readAt: new Date() },
  });
  return count;
}
