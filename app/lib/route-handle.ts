/** What a route tells the root about its page chrome (SPEC §2 "Layout" column). */
export interface RouteHandle {
  /** false hides the header and footer ("no layout"). */
  layout?: boolean;
  /** "shopify" pages render inside the Shopify admin with Polaris, without the site's providers. */
  surface?: "site" | "shopify";
  /**
   * false: the page never restores the visitor's Firebase session, so no Firebase code is downloaded (embeds:
   * public and unlisted models only, in other sites' frames; issue 20). useAuth() is ready at once, signed out.
   */
  session?: boolean;
  /**
   * false: the page uses no PrimeReact component, so the root leaves out PrimeReact's theme (182 kB of CSS whose
   * style recalculation delayed the embed's first frame; issue 20). Its icons and the site's own CSS stay.
   */
  primeTheme?: boolean;
}

export function readHandles(matches: Array<{ handle?: unknown }>): Required<RouteHandle> {
  const merged: Required<RouteHandle> = { layout: true, surface: "site", session: true, primeTheme: true };
  for (const match of matches) {
    const handle = match.handle as RouteHandle | undefined;
    if (handle?.layout !== undefined) merged.layout = handle.layout;
    if (handle?.surface) merged.surface = handle.surface;
    if (handle?.session !== undefined) merged.session = handle.session;
    if (handle?.primeTheme !== undefined) merged.primeTheme = handle.primeTheme;
  }
  return merged;
}
