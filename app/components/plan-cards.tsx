import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { CreditPackageDto, PlanDto } from "~/domain/plan-presenter";
import { formatCount, formatDate } from "~/lib/format";
import { planAllowanceLines } from "~/lib/plan-allowances";
import { planCardAction, type PlanCardBilling } from "~/lib/plan-actions";
import type { PlansPageData } from "~/pages/plans-page.server";
import { useRevalidateWhile } from "~/components/use-revalidate-while";

type Billing = NonNullable<PlansPageData["billing"]>;
type Payments = PlansPageData["payments"];
type CheckoutPage = "pricing" | "topup";

/** Shown while a button cannot work because payments are not configured (honest, never a fake checkout). */
function CheckoutUnavailable({ label }: { label: string }) {
  return (
    <div className="checkout-unavailable">
      <button type="button" className="p-button p-button-outlined" disabled aria-describedby="checkout-note">
        {label}
      </button>
    </div>
  );
}

/**
 * Without Stripe keys the pages say so in plain words (docs/decisions/009). How to turn checkout on is for
 * developers and lives in the README, never on a visitor's page (issue 17, item 19).
 */
export function CheckoutNote({ payments }: { payments: Payments }) {
  if (payments.enabled) return null;
  return (
    <p id="checkout-note" className="checkout-note" data-testid="checkout-note">
      <i className="pi pi-info-circle" aria-hidden="true" /> Online checkout is not available yet. To change your plan or buy credits now,{" "}
      <Link to="/contact">contact us</Link>.
    </p>
  );
}

const POLL_MS = 2000;
const POLL_LIMIT = 30;

/** The result of a checkout the visitor returns from; while Stripe has not confirmed yet, it checks again. */
export function CheckoutStatus({ status }: { status: PlansPageData["checkout"] }) {
  const [polls, setPolls] = useState(0);
  const pending = status?.state === "pending" && polls < POLL_LIMIT;
  useRevalidateWhile(pending, POLL_MS);
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => setPolls((n) => n + 1), POLL_MS);
    return () => clearInterval(timer);
  }, [pending]);
  if (!status) return null;
  const tone = status.state === "complete" ? "success" : status.state === "failed" ? "error" : "info";
  return (
    <p className={`checkout-status checkout-status-${tone}`} role="status" data-testid="checkout-status" data-state={status.state}>
      {status.message}
      {status.state === "pending" && !pending ? " It is taking longer than usual: reload this page in a minute." : null}
    </p>
  );
}

/** The Stripe customer portal: payment methods, invoices, cancelling. */
export function ManageBillingButton({ page, label = "Manage billing" }: { page: "settings" | "pricing"; label?: string }) {
  return (
    <form method="post" action="/billing/portal" className="checkout-form">
      <input type="hidden" name="page" value={page} />
      <button type="submit" className="p-button p-button-outlined">
        {label}
      </button>
    </form>
  );
}

/** Above the plan cards: who bills the plan, a pending cancellation, or a payment that did not go through. */
export function BillingNote({ billing }: { billing: Billing | null }) {
  if (!billing) return null;
  if (!billing.live) {
    return (
      <div className="checkout-note" data-testid="billing-note">
        <p>
          The last payment for your {billing.subscribed_plan.name} plan did not go through, so the {billing.plan_in_force.name} plan&apos;s limits
          apply until it does. Nothing you made was deleted.
        </p>
        {billing.can_manage_billing ? <ManageBillingButton page="pricing" label="Update your payment method" /> : null}
      </div>
    );
  }
  if (billing.provider === "stripe" && billing.cancel_at_period_end) {
    return (
      <p className="checkout-note" data-testid="billing-note">
        Your {billing.subscribed_plan.name} plan ends on {formatDate(billing.current_period_end)}; then you move to the Free plan. Nothing you
        made is deleted.
      </p>
    );
  }
  if (billing.provider === "shopify") {
    return (
      <p className="checkout-note" data-testid="billing-note">
        Your {billing.subscribed_plan.name} plan is billed through Shopify: change it in the Scanroom app in your Shopify admin.
      </p>
    );
  }
  return null;
}

function toCardBilling(billing: Billing | null): PlanCardBilling | null {
  return billing
    ? { subscribedPlanId: billing.subscribed_plan.id, provider: billing.provider, live: billing.live, canManageBilling: billing.can_manage_billing }
    : null;
}

function PlanAction({ plan, billing, payments, page }: { plan: PlanDto; billing: Billing | null; payments: Payments; page: CheckoutPage }) {
  const action = planCardAction({ plan: { id: plan.id, name: plan.name, priceAmount: plan.price.amount }, billing: toCardBilling(billing), paymentsEnabled: payments.enabled });
  switch (action.type) {
    case "unavailable":
      return <CheckoutUnavailable label={action.label} />;
    case "sign_in":
      return (
        <Link to={`/auth?redirect=${encodeURIComponent(`/${page}`)}`} className="p-button p-button-outlined checkout-link">
          {action.label}
        </Link>
      );
    case "checkout":
      return (
        <form method="post" action="/billing/checkout" className="checkout-form">
          <input type="hidden" name="kind" value="plan" />
          <input type="hidden" name="plan_type" value={plan.plan_type} />
          <input type="hidden" name="page" value={page} />
          <button type="submit" className="p-button">
            {action.label}
          </button>
        </form>
      );
    case "portal":
      return <ManageBillingButton page="pricing" label={action.label} />;
    case "note":
      return <p className="plan-features-text">{action.text}</p>;
    default:
      return null;
  }
}

export function PlanCards({
  plans,
  currentPlanId,
  billing = null,
  payments = { enabled: false },
  page = "pricing",
}: {
  plans: PlanDto[];
  currentPlanId: string | null;
  billing?: Billing | null;
  payments?: Payments;
  page?: CheckoutPage;
}) {
  return (
    <ul className="plan-grid">
      {plans.map((plan) => {
        const current = plan.id === currentPlanId;
        return (
          <li key={plan.id} className={current ? "plan-card is-current" : "plan-card"} data-testid="plan-card" data-plan={plan.plan_type}>
            <h3>{plan.name}</h3>
            {current ? <span className="plan-current" data-testid="current-plan-badge">Current plan</span> : null}
            <p className="plan-price">
              <strong>{plan.price.formatted}</strong> / {plan.price.interval}
            </p>
            <ul className="plan-features">
              {planAllowanceLines(plan).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <PlanAction plan={plan} billing={billing} payments={payments} page={page} />
          </li>
        );
      })}
    </ul>
  );
}

export function PackageCards({ packages, payments, signedIn }: { packages: CreditPackageDto[]; payments: Payments; signedIn: boolean }) {
  return (
    <ul className="plan-grid">
      {packages.map((pkg) => (
        <li key={pkg.id} className="plan-card" data-testid="package-card" data-package={pkg.name}>
          <h3>{pkg.name}</h3>
          <p className="plan-price">
            <strong>{pkg.price.formatted}</strong>
          </p>
          <p className="plan-features-text">
            {formatCount(pkg.credits)} {pkg.credit_type} credits that carry over from month to month.
          </p>
          {!payments.enabled ? (
            <CheckoutUnavailable label={`Buy ${pkg.name} — checkout not available yet`} />
          ) : !signedIn ? (
            <Link to="/auth?redirect=%2Ftopup" className="p-button p-button-outlined checkout-link">
              Sign in to buy {pkg.name}
            </Link>
          ) : (
            <form method="post" action="/billing/checkout" className="checkout-form">
              <input type="hidden" name="kind" value="package" />
              <input type="hidden" name="package_id" value={pkg.id} />
              <input type="hidden" name="page" value="topup" />
              <button type="submit" className="p-button">
                Buy {pkg.name} for {pkg.price.formatted}
              </button>
            </form>
          )}
        </li>
      ))}
    </ul>
  );
}
