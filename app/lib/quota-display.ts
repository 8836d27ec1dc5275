import type { UserQuotas } from "./upload-rules";

/** SPEC §3 quotas, as GET /v1/user/quotas answers them (one definition, in upload-rules). */
export type Quotas = UserQuotas;

/** "remaining/quota", or "Unlimited" for -1 (SPEC §9 quota display). */
export function remainingOfQuota(remaining: number, quota: number): string {
  if (quota === -1) return "Unlimited";
  return `${Math.max(0, remaining)}/${quota}`;
}

/** SPEC §9: scans remaining/quota (+top-up); annotations '{n} per model'; link and embed remaining/quota. */
export function quotaLines(q: Quotas): Array<{ key: string; label: string; value: string }> {
  const topUp = q.topup_scan_credit > 0 && q.scan_quota !== -1 ? ` (+${q.topup_scan_credit})` : "";
  return [
    { key: "scans", label: "Scans", value: `${remainingOfQuota(q.scan_credit, q.scan_quota)}${topUp}` },
    { key: "annotations", label: "Annotations", value: q.annotation_quota === -1 ? "Unlimited" : `${q.annotation_quota} per model` },
    { key: "links", label: "Links", value: remainingOfQuota(q.link_credit, q.link_quota) },
    { key: "embeds", label: "Embeds", value: remainingOfQuota(q.embed_credit, q.embed_quota) },
  ];
}
