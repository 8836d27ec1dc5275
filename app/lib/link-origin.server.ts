import { BlockList, isIP } from "node:net";

/**
 * The one rule for the origin absolute links are built on when a request names where it came to
 * (docs/decisions/039). The local-disk storage signs upload and download URLs on it, so a site opened at
 * 127.0.0.1 gets links that work there (issue 17 item 2); every other link is built on APP_URL.
 *
 * - The host is the request's Host header, or X-Forwarded-Host (and the scheme X-Forwarded-Proto) when the
 *   connection comes from a configured proxy (TRUSTED_PROXIES); anyone else's X-Forwarded-* are ignored.
 * - That host is used only when it is on the allow list made in app/env.server.ts (legacy hosts; in the local
 *   profile the loopback names of PORT). Any other host gets APP_URL: a forged Host never reaches a link.
 */

export interface LinkOriginRules {
  /** Where links go unless the request came to an allowed host. */
  appUrl: string;
  /** Allowed hosts (lowercase `host` or `host:port`); one without a port stands for any port. */
  linkHosts: readonly string[];
  isTrustedProxy: (peerAddress: string | undefined) => boolean;
}

/** What the connection and its headers say about where a request came to. */
export interface RequestArrival {
  host: string | undefined;
  forwardedHost: string | undefined;
  forwardedProto: string | undefined;
  /** The address of the connection's other end: the client, or a proxy in front of us. */
  peerAddress: string | undefined;
  /** Whether that connection is TLS itself. */
  encrypted: boolean;
}

/** The origin to build the request's links on: its own when allowed, else APP_URL's. */
export function linkOriginOf(arrival: RequestArrival, rules: LinkOriginRules): string {
  const fromProxy = rules.isTrustedProxy(arrival.peerAddress);
  const host = (fromProxy && firstOf(arrival.forwardedHost)) || arrival.host;
  const forwardedProto = fromProxy ? firstOf(arrival.forwardedProto)?.toLowerCase() : undefined;
  const protocol = forwardedProto === "https" || forwardedProto === "http" ? forwardedProto : arrival.encrypted ? "https" : "http";
  const named = plainHost(host, protocol);
  if (named && rules.linkHosts.some((allowed) => allowed === named.host || allowed === named.hostname)) return named.origin;
  return new URL(rules.appUrl).origin;
}

/** Whether an address is one of the configured proxies (`10.0.0.7`, `10.0.0.0/8`; IPv4-mapped IPv6 read as IPv4). */
export function trustedProxyMatcher(entries: readonly string[]): (peerAddress: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (peerAddress) => {
    if (!peerAddress || entries.length === 0) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(peerAddress);
    const address = mapped ? mapped[1] : peerAddress;
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
  };
}

/** The first value of a header a chain of proxies may have appended to. */
function firstOf(value: string | undefined): string | undefined {
  return value?.split(",")[0]?.trim() || undefined;
}

/** `host` read as a URL's host, or null when it is anything but a plain `name[:port]` (a path, credentials, spaces). */
function plainHost(host: string | undefined, protocol: "http" | "https"): URL | null {
  if (!host || !/^([a-z\d.-]+|\[[a-f\d:.]+\])(:\d{1,5})?$/i.test(host)) return null;
  const url = `${protocol}://${host}/`;
  return URL.canParse(url) ? new URL(url) : null;
}
