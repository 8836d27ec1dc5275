import { MESSAGES } from "./upload-rules";

/**
 * When to tell a user their monthly scans are running out (issue 8: at 80 % and 100 % of the scan
 * quota). Pure: the ledger decides the numbers, this decides the words.
 */
export interface ScanQuotaState {
  /** The plan's scans per period; -1 (unlimited) and 0 never warn. */
  quota: number;
  /** What is left of this period's grant. */
  periodLeft: number;
  /** Purchased scans, used after the period's grant. */
  topupLeft: number;
}

export interface ScanQuotaWarning {
  level: 80 | 100;
  title: string;
  body: string;
}

export const QUOTA_WARNING_LEVELS = [80, 100] as const;

const scans = (n: number) => `${n} ${n === 1 ? "scan" : "scans"}`;

/** The highest threshold this state has reached, or null below 80 %. */
export function scanQuotaWarning({ quota, periodLeft, topupLeft }: ScanQuotaState): ScanQuotaWarning | null {
  if (quota <= 0) return null;
  const left = Math.max(0, Math.min(quota, periodLeft));
  const used = quota - left;
  if (left === 0) {
    if (topupLeft > 0) {
      return {
        level: 100,
        title: `You have used all ${scans(quota)} of this billing period`,
        body: `Your ${scans(topupLeft)} from top-ups ${topupLeft === 1 ? "is" : "are"} used next; your monthly scans renew with the next period.`,
      };
    }
    return { level: 100, title: `You have used all ${scans(quota)} of this billing period`, body: MESSAGES.noScanCredits };
  }
  if (used * 100 >= quota * 80) {
    return {
      level: 80,
      title: `You have used ${used} of your ${scans(quota)} this billing period`,
      body: `${scans(left)} left this period${topupLeft > 0 ? `, plus ${scans(topupLeft)} from top-ups` : ""}. Top up or upgrade your plan for more.`,
    };
  }
  return null;
}
