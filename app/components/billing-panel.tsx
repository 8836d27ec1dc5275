import { Link } from "@remix-run/react";
import type { BillingOverview } from "~/domain/billing-overview.server";
import { formatDate } from "~/lib/format";
import { ManageBillingButton } from "./plan-cards";

const BILLED_BY: Record<BillingOverview["provider"], string> = {
  none: "No payment needed",
  stripe: "Card, through Stripe",
  shopify: "Your Shopify store",
};

/** /settings: the plan in force, who bills it, what happens next, and Stripe's portal (issue 8). */
export function BillingPanel({ billing, failure }: { billing: BillingOverview; failure: string | null }) {
  const paid = billing.provider !== "none";
  return (
    <section className="settings-panel" aria-labelledby="billing-heading" data-testid="billing-panel">
      <h2 id="billing-heading">Billing</h2>
      {failure ? (
        <p className="checkout-status checkout-status-error" role="status">
          {failure}
        </p>
      ) : null}
      <dl className="settings-facts">
        <div>
          <dt>Plan in force</dt>
          <dd data-testid="plan-in-force">{billing.plan_in_force.name}</dd>
        </div>
        <div>
          <dt>Billed by</dt>
          <dd>{BILLED_BY[billing.provider]}</dd>
        </div>
        {paid ? (
          <div>
            <dt>{billing.cancel_at_period_end ? "Ends on" : "Renews on"}</dt>
            <dd>{formatDate(billing.current_period_end)}</dd>
          </div>
        ) : null}
      </dl>
      {!billing.live ? (
        <p data-testid="billing-lapsed">
          The last payment for your {billing.subscribed_plan.name} plan did not go through, so the {billing.plan_in_force.name} plan&apos;s limits apply
          until it does. Nothing you made was deleted.
        </p>
      ) : billing.cancel_at_period_end ? (
        <p>Your {billing.subscribed_plan.name} plan ends on {formatDate(billing.current_period_end)}; then the Free plan applies. Nothing you made is deleted.</p>
      ) : null}
      {billing.can_manage_billing ? <ManageBillingButton page="settings" /> : null}
      <p>
        <Link to="/pricing">Change plan</Link> · <Link to="/topup">Buy credits</Link>
      </p>
    </section>
  );
}
