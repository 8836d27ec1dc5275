/**
 * What the pricing, top-up and settings pages say when a checkout or the billing portal could not be
 * opened. The pages get a reason code in the URL (never free text, so a crafted link cannot put words
 * in our mouth); this maps codes to messages, one place for the server's errors and the pages.
 */
export const CHECKOUT_FAILURES = {
  unavailable: "Online checkout is not available yet.",
  provider_error: "We could not reach our payment provider. Please try again in a moment.",
  already_on_plan: "You are already on this plan.",
  shopify_billed: "Your plan is billed through Shopify. Change it in the Scanroom app in your Shopify admin.",
  not_found: "This plan or credit package cannot be bought.",
  no_billing_account: "There is nothing to manage yet: you have not paid with a card on Scanroom.",
  invalid: "That request was not understood. Please try again.",
} as const;
export type CheckoutFailure = keyof typeof CHECKOUT_FAILURES;

export const CHECKOUT_CANCELLED = "Checkout cancelled: nothing was charged.";

export function isCheckoutFailure(reason: unknown): reason is CheckoutFailure {
  return typeof reason === "string" && Object.hasOwn(CHECKOUT_FAILURES, reason);
}

/** The message for a reason code from a URL, or null for anything else. */
export function checkoutFailureMessage(reason: string | null | undefined): string | null {
  return isCheckoutFailure(reason) ? CHECKOUT_FAILURES[reason] : null;
}
