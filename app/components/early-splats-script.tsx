import { useNonce } from "~/lib/nonce-context";

/**
 * The page's `<script type="module" async>` for the early splats (app/viewer/early-splats, decision 038): in the
 * server's HTML, so the browser runs it as soon as it arrives, before the entry scripts and hydration. It
 * carries the response's nonce like every script the server writes. Renders nothing where the page has no
 * coarse level to show.
 */
export function EarlySplatsScript({ earlySplats }: { earlySplats: readonly string[] | null | undefined }) {
  const nonce = useNonce();
  const src = earlySplats?.[0];
  // Fetched ahead of the rest by its modulepreload link (viewerPreloadLinks, high priority).
  return src ? <script type="module" async src={src} nonce={nonce || undefined} /> : null;
}
