import { formatCount } from "./format";

/**
 * What a plan allows, in words: the pricing cards, and the notice a user gets when their plan changes
 * (issue 8: on a downgrade or lapse the user is told what the new plan allows). -1 means unlimited.
 */
export interface PlanLimits {
  name: string;
  scan_quota: number;
  link_quota: number;
  annotation_quota: number;
  embed_quota: number;
  watermark_removal: boolean;
}

const amount = (n: number, unit: string) => (n === -1 ? `Unlimited ${unit}s` : `${formatCount(n)} ${n === 1 ? unit : `${unit}s`}`);

/** One line per allowance, as the plan cards list them. */
export function planAllowanceLines(plan: PlanLimits): string[] {
  return [
    `${amount(plan.scan_quota, "scan")}${plan.scan_quota === -1 ? "" : " a month"}`,
    amount(plan.link_quota, "link"),
    plan.annotation_quota === -1 ? "Unlimited annotations" : `${formatCount(plan.annotation_quota)} annotations per model`,
    amount(plan.embed_quota, "embed"),
    plan.watermark_removal ? "Remove the watermark from embeds" : "Scanroom watermark on embeds",
  ];
}

/** A plan's rank for comparing two plans: by scan quota (unlimited highest), then by links. */
function rank(plan: PlanLimits): [number, number] {
  const unlimitedFirst = (n: number) => (n === -1 ? Number.MAX_SAFE_INTEGER : n);
  return [unlimitedFirst(plan.scan_quota), unlimitedFirst(plan.link_quota)];
}

export function isDowngrade(from: PlanLimits, to: PlanLimits): boolean {
  const [a, b] = [rank(from), rank(to)];
  return b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) || (from.watermark_removal && !to.watermark_removal);
}

export type PlanChangeCause = "subscribed" | "renewal_failed" | "ended";

/** The notification a plan change sends: what the plan in force now allows, and that nothing was deleted. */
export function planChangeNotice({ from, to, cause }: { from: PlanLimits; to: PlanLimits; cause: PlanChangeCause }): { title: string; body: string } {
  const allows = `${to.name} includes: ${planAllowanceLines(to).join("; ")}.`;
  const why =
    cause === "renewal_failed"
      ? `The payment for your ${from.name} plan did not go through, so the ${to.name} plan applies until it does. `
      : cause === "ended"
        ? `Your ${from.name} plan has ended. `
        : "";
  if (!isDowngrade(from, to)) return { title: `Your plan is now ${to.name}`, body: `${why}${allows}` };
  return {
    title: `Your plan is now ${to.name}`,
    body:
      `${why}${allows} Nothing you made is deleted: every model stays viewable, your product links and embeds keep working ` +
      `(embeds show the Scanroom watermark where the plan requires it), and anything above the new limits stays as it is; ` +
      `only new scans, links and annotations count against them.`,
  };
}
