import { db, type Announcement } from "~/db.server";
import { safeCssColor } from "~/lib/css-color";
import { sanitizeAnnouncementHtml } from "~/lib/sanitize-html.server";
import { invalidInput, notFound } from "./errors";
import type { AnnouncementInput } from "./schemas";

/**
 * Announcements (SPEC §2 "Announcement bar", §3). Content is HTML: sanitised when saved and again when
 * rendered, so a row written by an older version or by hand can never carry a script to the page.
 * Colours are checked too, because they go into inline styles.
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

/** The bar's list: active announcements, by `order` ascending (oldest first on ties). */
export async function listActiveAnnouncements(): Promise<AnnouncementDto[]> {
  const rows = await db().announcement.findMany({
    where: { isActive: true },
    orderBy: [{ order: "asc" }, { createdAt: "asc" }],
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

/** Creates an announcement (admin); content is sanitised before it is stored. */
export async function createAnnouncement(input: AnnouncementInput): Promise<AnnouncementDto> {
  const data = toData(input);
  const row = await db().announcement.create({ data: { ...data, content: data.content! } });
  return presentAnnouncement(row);
}

/** Updates an announcement (admin); only the given fields change. */
export async function updateAnnouncement({ id, changes }: { id: string; changes: Partial<AnnouncementInput> }) {
  const { count } = await db().announcement.updateMany({ where: { id }, data: toData(changes) });
  if (count === 0) throw notFound("Announcement");
  return presentAnnouncement(await db().announcement.findUniqueOrThrow({ where: { id } }));
}

export async function deleteAnnouncement({ id }: { id: string }) {
  const { count } = await db().announcement.deleteMany({ where: { id } });
  if (count === 0) throw notFound("Announcement");
}

/** Every announcement, active or not, for the admin list. */
export async function listAllAnnouncements(): Promise<AnnouncementDto[]> {
  const rows = await db().announcement.findMany({ orderBy: [{ order: "asc" }, { createdAt: "asc" }] });
  return rows.map(presentAnnouncement);
}
