import { Link } from "@remix-run/react";
import type { CreditPackageDto, PlanDto } from "~/domain/plan-presenter";
import { formatCount } from "~/lib/format";

const quota = (n: number, unit: string) => (n === -1 ? `Unlimited ${unit}s` : `${formatCount(n)} ${n === 1 ? unit : `${unit}s`}`);

/** Honest about payments: checkout is a later piece of work (issue: billing). */
export function CheckoutUnavailable({ label }: { label: string }) {
  return (
    <div className="checkout-unavailable">
      <button type="button" className="p-button p-button-outlined" disabled aria-describedby="checkout-note">
        {label}
      </button>
    </div>
  );
}

export function CheckoutNote() {
  return (
    <p id="checkout-note" className="checkout-note" data-testid="checkout-note">
      <i className="pi pi-info-circle" aria-hidden="true" /> Online checkout is not available yet. To change your plan or buy credits now,{" "}
      <Link to="/contact">contact us</Link>.
    </p>
  );
}

export function PlanCards({ plans, currentPlanId }: { plans: PlanDto[]; currentPlanId: string | null }) {
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
              <li>
                {quota(plan.scan_quota, "scan")}
                {plan.scan_quota === -1 ? "" : " a month"}
              </li>
              <li>{quota(plan.link_quota, "link")}</li>
              <li>{plan.annotation_quota === -1 ? "Unlimited annotations" : `${formatCount(plan.annotation_quota)} annotations per model`}</li>
              <li>{quota(plan.embed_quota, "embed")}</li>
              <li>{plan.watermark_removal ? "Remove the watermark from embeds" : "Scanroom watermark on embeds"}</li>
            </ul>
            {current ? null : plan.price.amount === 0 ? null : <CheckoutUnavailable label={`Choose ${plan.name} — checkout not available yet`} />}
          </li>
        );
      })}
    </ul>
  );
}

export function PackageCards({ packages }: { packages: CreditPackageDto[] }) {
  return (
    <ul className="plan-grid">
      {packages.map((pkg) => (
        <li key={pkg.id} className="plan-card" data-testid="package-card">
          <h3>{pkg.name}</h3>
          <p className="plan-price">
            <strong>{pkg.price.formatted}</strong>
          </p>
          <p className="plan-features-text">
            {formatCount(pkg.credits)} {pkg.credit_type} credits that carry over from month to month.
          </p>
          <CheckoutUnavailable label={`Buy ${pkg.name} — checkout not available yet`} />
        </li>
      ))}
    </ul>
  );
}
