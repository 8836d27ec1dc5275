import { randomBytes, randomUUID } from "node:crypto";
import { db, type ShareLink } from "~/db.server";
import { shareOrigin } from "~/lib/request-origin.server";
import { getUserQuotas, reserveCredits, settleReservation, withCreditLedger } from "./credits.server";
import { PRIVATE_SHARING_MESSAGE } from "./embeds.server";
import { AppError, notFound } from "~/lib/errors";
import { getOwnedItem, visibleTo } from "./item-access.server";

/**
 * Share links (SPEC §9 link quota and link credits; docs/decisions/012): short, revocable links to a public
 * or unlisted model, `/s/{slug}`, each with an optional label ("Instagram bio") and a count of opens. Making
 * one spends a link credit from the ledger (this period's plan grant first, then top-ups); revoking one turns
 * the link off and gives nothing back. A link opens only while its model is visible by link.
 */
export const SHARE_LINK_LABEL_MAX = 80;
const SLUG_ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"; // no 0/O, 1/l/I
export const SHARE_SLUG_PATTERN = /^[A-Za-z0-9]{10}$/;

function newSlug(): string {
  return Array.from(randomBytes(10), (byte) => SLUG_ALPHABET[byte % SLUG_ALPHABET.length]).join("");
}

export function shareLinkUrl(slug: string): string {
  return new URL(`/s/${slug}`, shareOrigin()).toString();
}

function presentShareLink(link: ShareLink) {
  return {
    id: link.id,
    item_id: link.itemId,
    label: link.label,
    url: shareLinkUrl(link.slug),
    open_count: link.openCount,
    last_opened_at: link.lastOpenedAt?.toISOString() ?? null,
    created_at: link.createdAt.toISOString(),
  };
}
export type ShareLinkDto = ReturnType<typeof presentShareLink>;

/** Makes a share link, spending one link credit in the same transaction (refused with nothing written when none is left). */
export async function createShareLink({ itemId, ownerId, label }: { itemId: string; ownerId: string; label?: string | null }) {
  const link = await withCreditLedger(ownerId, async (ctx) => {
    const item = await ctx.tx.item.findFirst({ where: { id: itemId, ownerId }, select: { visibility: true } });
    if (!item) throw notFound();
    if (item.visibility === "private") throw new AppError("conflict", PRIVATE_SHARING_MESSAGE);
    const id = randomUUID();
    const reference = `share-link:${id}`;
    await reserveCredits(ctx, { creditType: "link", amount: 1, reference, reason: "Share link" });
    await settleReservation(ctx, { reference, kind: "consumption", reason: "Share link created" });
    return ctx.tx.shareLink.create({ data: { id, slug: newSlug(), itemId, ownerId, label: label?.trim() || null } });
  });
  return presentShareLink(link);
}

/** The item's active links (newest first) and what is left of the owner's link credits. */
export async function listShareLinks({ itemId, ownerId }: { itemId: string; ownerId: string }) {
  await getOwnedItem({ itemId, ownerId });
  const [links, quotas] = await Promise.all([
    db().shareLink.findMany({ where: { itemId, ownerId, revokedAt: null }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
    getUserQuotas({ userId: ownerId }),
  ]);
  return { links: links.map(presentShareLink), link_quota: quotas.link_quota, link_credit: quotas.link_credit };
}

export async function revokeShareLink({ itemId, linkId, ownerId }: { itemId: string; linkId: string; ownerId: string }) {
  const { count } = await db().shareLink.updateMany({
    where: { id: linkId, itemId, ownerId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) {
    await getOwnedItem({ itemId, ownerId });
    throw notFound("Share link");
  }
}

/** The link's model when the link is active and the model visible by link (public or unlisted, published, live owner). */
async function findOpenableLink(slug: string) {
  if (!SHARE_SLUG_PATTERN.test(slug)) return null;
  return db().shareLink.findFirst({ where: { slug, revokedAt: null, item: visibleTo(null) }, select: { id: true, itemId: true } });
}

/** The model a share link points to, without counting an open (oEmbed), or null. */
export async function findSharedItemId({ slug }: { slug: string }): Promise<string | null> {
  return (await findOpenableLink(slug))?.itemId ?? null;
}

/** Follows a share link: the item id to show, counting the open, or null when the link does not open. */
export async function openShareLink({ slug }: { slug: string }): Promise<string | null> {
  const link = await findOpenableLink(slug);
  if (!link) return null;
  await db().shareLink.updateMany({ where: { id: link.id }, data: { openCount: { increment: 1 }, lastOpenedAt: new Date() } });
  return link.itemId;
}
