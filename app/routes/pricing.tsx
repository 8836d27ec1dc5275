import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { BillingNote, CheckoutNote, CheckoutStatus, ManageBillingButton, PlanCards } from "~/components/plan-cards";
import { loadPlansPage } from "~/pages/plans-page.server";

export const meta: MetaFunction = () => [
  { title: "Pricing — Scanroom" },
  { name: "description", content: "Scanroom plans: monthly scans, links, annotations and embeds." },
];

export async function loader({ request }: LoaderFunctionArgs) {
  return json(await loadPlansPage(request));
}

export default function Pricing() {
  const { plans, currentPlanId, signedIn, billing, payments, checkout } = useLoaderData<typeof loader>();
  const paysWithStripe = billing?.provider === "stripe" && billing.live;
  return (
    <section className="page pricing">
      <h1>Pricing</h1>
      <p className="explore-lead">
        Every plan includes unlimited model uploads (.glb, .ply, .ksplat, .spz, .splat, .sog). Scans turn a video or a photo set into a 3D model and cost one
        scan credit each; unused monthly scans do not carry over.
      </p>
      <CheckoutStatus status={checkout} />
      <CheckoutNote payments={payments} />
      <BillingNote billing={billing} />
      {paysWithStripe && payments.enabled ? (
        <p className="plan-switch-note">
          Plans are billed monthly from the day you subscribe. Switching starts the new plan and its monthly scans today; Stripe credits the
          unused time of your current plan to your next invoices.
        </p>
      ) : null}
      <PlanCards plans={plans} currentPlanId={currentPlanId} billing={billing} payments={payments} page="pricing" />
      {billing?.can_manage_billing ? <ManageBillingButton page="pricing" label="Invoices and payment methods" /> : null}
      <p>
        Need more scans this month? <Link to="/topup">Top up with credit packages</Link>.
        {signedIn ? null : (
          <>
            {" "}
            New here? <Link to="/auth?redirect=%2Fpricing">Create a free account</Link>.
          </>
        )}
      </p>
    </section>
  );
}
