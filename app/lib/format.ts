/** Display formats that render the same on the server and in the browser (no local time zone). */
const DATE = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });
const NUMBER = new Intl.NumberFormat("en");

export function formatDate(iso: string | Date): string {
  return DATE.format(typeof iso === "string" ? new Date(iso) : iso);
}

export function formatCount(n: number): string {
  return NUMBER.format(n);
}

export function pluralize(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
