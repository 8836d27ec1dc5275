import { db } from "~/db.server";
import { listAuditEntries } from "./audit.server";

/** The admin home: how many of each thing there are, and the newest admin actions. */
export async function getAdminOverview() {
  const [announcements, activeAnnouncements, categories, users, admins, disabledUsers, publicItems, unpublishedItems, contactMessages, recent] =
    await Promise.all([
      db().announcement.count(),
      db().announcement.count({ where: { isActive: true } }),
      db().category.count(),
      db().user.count(),
      db().user.count({ where: { isAdmin: true } }),
      db().user.count({ where: { disabledAt: { not: null } } }),
      db().item.count({ where: { visibility: "public", unpublishedAt: null } }),
      db().item.count({ where: { unpublishedAt: { not: null } } }),
      db().contactMessage.count(),
      listAuditEntries({ limit: 10 }),
    ]);
  return {
    counts: {
      announcements,
      active_announcements: activeAnnouncements,
      categories,
      users,
      admins,
      disabled_users: disabledUsers,
      public_items: publicItems,
      unpublished_items: unpublishedItems,
      contact_messages: contactMessages,
    },
    recent,
  };
}
