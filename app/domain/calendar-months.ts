/** Calendar months from a subscription's anchor: the billing period (the credit ledger, Stripe and Shopify billing). */
/** `anchor` plus `months` calendar months, clamped to the month's last day (Jan 31 + 1 → Feb 28/29). */
export function addMonths(anchor: Date, months: number): Date {
  const next = new Date(anchor);
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

/**
 * The billing period containing `now`. Plans without a payment provider renew themselves each month
 * from the subscription's anchor; paid providers move the period through their webhooks.
 */
export function periodContaining(anchor: Date, now: Date): { start: Date; end: Date } {
  let months = 0;
  while (addMonths(anchor, months + 1) <= now) months++;
  return { start: addMonths(anchor, months), end: addMonths(anchor, months + 1) };
}
