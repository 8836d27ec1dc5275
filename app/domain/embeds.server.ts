import { db, type Embed, type Item, type Plan } from "~/db.server";
import { shareOrigin } from "~/lib/request-origin.server";
import { embedCode, embedUrl } from "~/lib/embed-code";
import { withCreditLedger } from "./credits.server";
import { AppError, notFound } from "~/lib/errors";
import { getOwnedItem } from "./item-access.server";
import { getPlanInForce } from "./plans.server";

/**
 * Registered embeds (SPEC §7 POST/GET /item/{id}/embed, §9 embed quota; docs/decisions/012). An embed is a
 * named placement of a model on another site, with its own iframe code (`/embed/{itemId}?embed_id=`), load
 * count, and revocation. The plan's embed quota caps how many are active at once (-1 unlimited). When a plan
 * lapses or shrinks, the oldest embeds within the new quota stay live and the rest show the model's poster —
 * an embed never turns into a broken frame. The plain `/embed/{itemId}` of a public or unlisted model needs
 * no registration (like sharing its page) and always shows the viewer.
 */
export const EMBED_LABEL_MAX = 80;

export function embedQuotaMessage(quota: number): string {
  return `Your plan allows ${quota} active ${quota === 1 ? "embed" : "embeds"} and all are in use. Remove one or upgrade your plan.`;
}

export const PRIVATE_SHARING_MESSAGE = "This model is private. Make it public or unlisted before embedding or sharing it.";

/** Whether embeds of this owner show the watermark: always, unless they turned it off on a plan that allows that. */
export function watermarkShown(item: Pick<Item, "isWatermarkEnabled">, plan: Pick<Plan, "watermarkRemoval">): boolean {
  return item.isWatermarkEnabled || !plan.watermarkRemoval;
}

/** Ids of the owner's active embeds that are within the plan's quota: the oldest ones first. */
async function liveEmbedIds(ownerId: string, plan: Pick<Plan, "embedQuota">): Promise<Set<string> | "all"> {
  if (plan.embedQuota === -1) return "all";
  const rows = await db().embed.findMany({
    where: { ownerId, revokedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: Math.max(0, plan.embedQuota),
    select: { id: true },
  });
  return new Set(rows.map((row) => row.id));
}

function presentEmbed(embed: Embed, item: { id: string; name: string }, live: boolean) {
  const origin = shareOrigin();
  return {
    id: embed.id,
    item_id: embed.itemId,
    label: embed.label,
    url: embedUrl(origin, item.id, { embedId: embed.id }),
    code: embedCode(origin, item, { embedId: embed.id }),
    /** false when the plan no longer covers it: the frame shows the model's poster. */
    live,
    load_count: embed.loadCount,
    last_loaded_at: embed.lastLoadedAt?.toISOString() ?? null,
    created_at: embed.createdAt.toISOString(),
  };
}
export type EmbedDto = ReturnType<typeof presentEmbed>;

/**
 * Registers an embed of the owner's public or unlisted item. The active count is checked under the owner's
 * ledger lock, so parallel requests cannot both take the last one.
 */
export async function createEmbed({ itemId, ownerId, label }: { itemId: string; ownerId: string; label?: string | null }) {
  const { embed, item } = await withCreditLedger(ownerId, async ({ tx, plan }) => {
    const owned = await tx.item.findFirst({ where: { id: itemId, ownerId }, select: { id: true, name: true, visibility: true } });
    if (!owned) throw notFound();
    if (owned.visibility === "private") throw new AppError("conflict", PRIVATE_SHARING_MESSAGE);
    const active = await tx.embed.count({ where: { ownerId, revokedAt: null } });
    if (plan.embedQuota !== -1 && active >= plan.embedQuota) throw new AppError("quota_exceeded", embedQuotaMessage(plan.embedQuota));
    const created = await tx.embed.create({ data: { itemId, ownerId, label: label?.trim() || null } });
    return { embed: created, item: owned };
  });
  return presentEmbed(embed, item, true);
}

/** The item's active embeds (oldest first), each with its code and whether the plan still covers it. */
export async function listEmbeds({ itemId, ownerId }: { itemId: string; ownerId: string }) {
  const item = await getOwnedItem({ itemId, ownerId });
  const plan = await getPlanInForce({ userId: ownerId });
  const [embeds, live, active] = await Promise.all([
    db().embed.findMany({ where: { itemId, ownerId, revokedAt: null }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    liveEmbedIds(ownerId, plan),
    db().embed.count({ where: { ownerId, revokedAt: null } }),
  ]);
  return {
    embeds: embeds.map((embed) => presentEmbed(embed, item, live === "all" || live.has(embed.id))),
    embed_quota: plan.embedQuota,
    embed_credit: plan.embedQuota === -1 ? -1 : Math.max(0, plan.embedQuota - active),
    /** Whether the owner's plan lets them turn the watermark off. */
    watermark_removal: plan.watermarkRemoval,
  };
}

/** Revokes an embed: its frame shows the poster from now on, and its place in the quota is free again. */
export async function revokeEmbed({ itemId, embedId, ownerId }: { itemId: string; embedId: string; ownerId: string }) {
  const { count } = await db().embed.updateMany({
    where: { id: embedId, itemId, ownerId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) {
    await getOwnedItem({ itemId, ownerId }); // a foreign or unknown item reads as "Item not found."
    throw notFound("Embed");
  }
}

/**
 * How a registered embed shows right now: "live" (the viewer) while it is active and within the owner's plan,
 * "poster" otherwise (revoked, unknown, or beyond a lapsed plan's quota). Counts the load.
 */
export async function resolveRegisteredEmbed({ itemId, ownerId, embedId }: { itemId: string; ownerId: string; embedId: string }) {
  const embed = await db().embed.findFirst({ where: { id: embedId, itemId, ownerId, revokedAt: null } });
  if (!embed) return "poster" as const;
  await db().embed.updateMany({ where: { id: embed.id }, data: { loadCount: { increment: 1 }, lastLoadedAt: new Date() } });
  const live = await liveEmbedIds(ownerId, await getPlanInForce({ userId: ownerId }));
  return live === "all" || live.has(embed.id) ? ("live" as const) : ("poster" as const);
}
