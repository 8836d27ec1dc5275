import { db, type Announcement } from "~/db.server";
import { safeCssColor } from "~/lib/css-color";
import { sanitizeAnnouncementHtml } from "~/lib/sanitize-html.server";
import { checkCompleteOrder } from "~/lib/reorder";
import { audited } from "./audit.server";
import { invalidInput, notFound } from "~/lib/errors";
import type { AnnouncementInput } from "./schemas";

/**
 * Announcements (SPEC §2 "Announcement bar", §3). Content is HTML: sanitised when saved and again when
 * rendered, so a row written by an older version or by hand can never carry a script to the page.
 * Colours are checked too, because they go into inline styles. Every change is audited (audit.server.ts).
 */
export function presentAnnouncement(row: Announcement) {
  return {
    id: row.id,
    content: sanitizeAnnouncementHtml(row.content),
    background_color: safeCssColor(row.backgroundColor),
    text_color: safeCssColor(row.textColor),
    is_active: row.isActive,
    order: row.order,
    is_closable: row.isClosable,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
export type AnnouncementDto = ReturnType<typeof presentAnnouncement>;

const BY_ORDER = [{ order: "asc" as const }, { createdAt: "asc" as const }];

/** The bar's list: active announcements, by `order` ascending (oldest first on ties). */
export async function listActiveAnnouncements(): Promise<AnnouncementDto[]> {
  const rows = await db().announcement.findMany({
    where: { isActive: true },
    orderBy: BY_ORDER,
    take: 20,
  });
  return rows.map(presentAnnouncement).filter((a) => a.content !== "");
}

function colorOrNull(value: string | null | undefined, field: string): string | null | undefined {
  if (value === undefined || value === null || value.trim() === "") return value === undefined ? undefined : null;
  const safe = safeCssColor(value);
  if (!safe) throw invalidInput(`${field} must be a CSS colour such as #1f2937 or rgba(255, 255, 255, 0.1)`);
  return safe;
}

function toData(input: Partial<AnnouncementInput>) {
  const content = input.content === undefined ? undefined : sanitizeAnnouncementHtml(input.content);
  if (content !== undefined && content === "") throw invalidInput("content must contain text after sanitising");
  return {
    content,
    backgroundColor: colorOrNull(input.background_color, "background_color"),
    textColor: colorOrNull(input.text_color, "text_color"),
    isActive: input.is_active,
    order: input.order,
    isClosable: input.is_closable,
  };
}

/** Who made a change, for the audit log (null: the system, e.g. a seed script). */
interface Actor {
  actorId?: string | null;
}

/**
 * Creates an announcement (admin); content is sanitised before it is stored. Without an `order` it
 * goes after the last one. Audited.
 */
export async function createAnnouncement(input: AnnouncementInput, { actorId = null }: Actor = {}): Promise<AnnouncementDto> {
  const data = toData(input);
  return audited(actorId, async (tx) => {
    const order = data.order ?? ((await tx.announcement.aggregate({ _max: { order: true } }))._max.order ?? -1) + 1;
    const row = await tx.announcement.create({ data: { ...data, content: data.content!, order } });
    const result = presentAnnouncement(row);
    return { result, audit: { action: "announcement.create", targetType: "announcement", targetId: row.id, before: null, after: result } };
  });
}

/** Updates an announcement (admin); only the given fields change. Audited. */
export async function updateAnnouncement({ id, changes, actorId = null }: { id: string; changes: Partial<AnnouncementInput> } & Actor) {
  const data = toData(changes);
  return audited(actorId, async (tx) => {
    const before = await tx.announcement.findUnique({ where: { id } });
    if (!before) throw notFound("Announcement");
    const row = await tx.announcement.update({ where: { id }, data });
    const result = presentAnnouncement(row);
    return {
      result,
      audit: { action: "announcement.update", targetType: "announcement", targetId: id, before: presentAnnouncement(before), after: result },
    };
  });
}

/** Deletes an announcement (admin). Audited. */
export async function deleteAnnouncement({ id, actorId = null }: { id: string } & Actor): Promise<void> {
  await audited(actorId, async (tx) => {
    const before = await tx.announcement.findUnique({ where: { id } });
    if (!before) throw notFound("Announcement");
    await tx.announcement.delete({ where: { id } });
    return {
      result: undefined,
      audit: { action: "announcement.delete", targetType: "announcement", targetId: id, before: presentAnnouncement(before), after: null },
    };
  });
}

/**
 * Puts every announcement in the given order (admin): all or nothing. The list must name each
 * announcement exactly once; otherwise nothing changes (invalid_input). Audited.
 */
export async function reorderAnnouncements({ announcementIds, actorId = null }: { announcementIds: string[] } & Actor) {
  return audited(actorId, async (tx) => {
    // Lock the rows so two reorders (or a reorder and an edit) cannot interleave.
    await tx.$queryRaw`SELECT id FROM "Announcement" FOR UPDATE`;
    const existing = await tx.announcement.findMany({ orderBy: BY_ORDER, select: { id: true } });
    const before = existing.map((a) => a.id);
    const problem = checkCompleteOrder({ requested: announcementIds, existing: before, field: "announcementIds" });
    if (problem) throw invalidInput(problem);
    for (const [order, id] of announcementIds.entries()) {
      await tx.announcement.update({ where: { id }, data: { order } });
    }
    const rows = await tx.announcement.findMany({ orderBy: BY_ORDER });
    return {
      result: rows.map(presentAnnouncement),
      audit: { action: "announcement.reorder", targetType: "announcement", targetId: null, before, after: announcementIds },
    };
  });
}

/** Every announcement, active or not, for the admin list. */
export async function listAllAnnouncements(): Promise<AnnouncementDto[]> {
  const rows = await db().announcement.findMany({ orderBy: BY_ORDER });
  return rows.map(presentAnnouncement);
}
