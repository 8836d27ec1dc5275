/**
 * Old addresses that must keep working (SPEC §2). Plain functions, shared by the catch-all route
 * (legacy paths) and the Express server (legacy hosts), and unit tested.
 */

/** Legacy paths → their static pages under public/legacy/. Matched case-insensitively, with or without a trailing slash. */
export const LEGACY_PAGES: Record<string, string> = {
  "/cuhk/metaverse": "/legacy/cuhk-metaverse.html",
  "/stw/builder": "/legacy/stw-builder.html",
  "/stw/hkeeia": "/legacy/stw-hkeeia.html",
  "/dgs": "/legacy/dgs.html",
  "/dgs2": "/legacy/dgs2.html",
  "/main": "/legacy/main.html",
};

export function legacyPageFor(pathname: string): string | null {
  const normalised = pathname.replace(/\/+$/, "").toLowerCase();
  return LEGACY_PAGES[normalised] ?? null;
}

/** Parses LEGACY_HOSTS ("old.example.com, www.old.example.com:8080") into lowercase host names. */
export function parseLegacyHosts(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * Where a request on a legacy host goes: the same path and query on APP_URL's host (301), or null
 * when the host is not a legacy one. `host` is the request's Host header (port included when sent).
 */
export function legacyHostRedirect(input: { host: string | undefined; originalUrl: string; legacyHosts: string[]; appUrl: string }): string | null {
  if (!input.host || input.legacyHosts.length === 0) return null;
  const host = input.host.toLowerCase();
  const hostname = host.replace(/:\d+$/, "");
  if (!input.legacyHosts.includes(host) && !input.legacyHosts.includes(hostname)) return null;
  const target = new URL(input.appUrl);
  if (target.host.toLowerCase() === host) return null; // never loop onto ourselves
  const pathAndQuery = input.originalUrl.startsWith("/") && !input.originalUrl.startsWith("//") ? input.originalUrl : "/";
  return `${target.origin}${pathAndQuery}`;
}
