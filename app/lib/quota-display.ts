/** SPEC §3 quotas, as GET /v1/user/quotas answers them. -1 means unlimited. */
export interface Quotas {
  link_quota: number;
  link_credit: number;
  scan_quota: number;
  scan_credit: number;
  topup_scan_credit: number;
  total_scan_credit: number;
  annotation_quota: number;
  embed_quota: number;
  embed_credit: number;
}

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
