import { createContext, useContext } from "react";

/**
 * The page's CSP nonce (app/lib/content-security-policy.server.ts) for the inline scripts the server renders.
 * Only the server knows it; in the browser it is "" (browsers hide the nonce attribute once the page has loaded,
 * and scripts added after hydration are not parser-inserted inline scripts).
 */
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
