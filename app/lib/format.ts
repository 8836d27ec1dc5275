/** Display formats that render the same on the server and in the browser (no local time zone). */
const DATE = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });
const NUMBER = new Intl.NumberFormat("en");

export function formatDate(iso: string | Date): string {
  return DATE.format(typeof iso === "string" ? new Date(iso) : iso);
}

const DATE_TIME = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** Date and time in UTC, e.g. "Nov 22, 2026, 10:05 AM UTC" (admin lists, the audit log). */
export function formatDateTime(iso: string | Date): string {
  return `${DATE_TIME.format(typeof iso === "string" ? new Date(iso) : iso)} UTC`;
}

export function formatCount(n: number): string {
  return NUMBER.format(n);
}

export function pluralize(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** A duration for people: "45 s", "3 min", "1 h 20 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}
