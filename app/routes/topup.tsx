import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { BillingNote, CheckoutNote, CheckoutStatus, PackageCards, PlanCards } from "~/components/plan-cards";
import { loadPlansPage } from "~/pages/plans-page.server";

export const meta: MetaFunction = () => [{ title: "Top-up — Scanroom" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return json(await loadPlansPage(request));
}

export default function TopUp() {
  const { plans, packages, currentPlanId, billing, payments, checkout, signedIn } = useLoaderData<typeof loader>();
  const scanPackages = packages.filter((p) => p.credit_type === "scan");
  const linkPackages = packages.filter((p) => p.credit_type === "link");
  const current = billing?.plan_in_force;
  return (
    <section className="page topup">
      <h1>Top-up</h1>
      <p className="explore-lead">
        Credit packages add scans or links on top of your plan. Top-up credits are used after your monthly quota and do not expire.
      </p>
      <CheckoutStatus status={checkout} />
      {current ? (
        <p data-testid="topup-current-plan">
          You are on the <strong>{current.name}</strong> plan. <Link to="/settings">See your usage</Link>.
        </p>
      ) : null}
      <CheckoutNote payments={payments} />
      <BillingNote billing={billing} />
      <h2>Scan credits</h2>
      <PackageCards packages={scanPackages} payments={payments} signedIn={signedIn} />
      <h2>Link credits</h2>
      <PackageCards packages={linkPackages} payments={payments} signedIn={signedIn} />
      <h2>Plans</h2>
      <PlanCards plans={plans} currentPlanId={currentPlanId} billing={billing} payments={payments} page="topup" />
    </section>
  );
}
