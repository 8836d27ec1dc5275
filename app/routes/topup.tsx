import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CheckoutNote, PackageCards, PlanCards } from "~/components/plan-cards";
import { loadPlansPage } from "~/lib/plans-page.server";

export const meta: MetaFunction = () => [{ title: "Top-up — Scanroom" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return json(await loadPlansPage(request));
}

export default function TopUp() {
  const { plans, packages, currentPlanId } = useLoaderData<typeof loader>();
  const scanPackages = packages.filter((p) => p.credit_type === "scan");
  const linkPackages = packages.filter((p) => p.credit_type === "link");
  const current = plans.find((p) => p.id === currentPlanId);
  return (
    <section className="page topup">
      <h1>Top-up</h1>
      <p className="explore-lead">
        Credit packages add scans or links on top of your plan. Top-up credits are used after your monthly quota and do not expire.
      </p>
      {current ? (
        <p data-testid="topup-current-plan">
          You are on the <strong>{current.name}</strong> plan. <Link to="/settings">See your usage</Link>.
        </p>
      ) : null}
      <CheckoutNote />
      <h2>Scan credits</h2>
      <PackageCards packages={scanPackages} />
      <h2>Link credits</h2>
      <PackageCards packages={linkPackages} />
      <h2>Plans</h2>
      <PlanCards plans={plans} currentPlanId={currentPlanId} />
    </section>
  );
}
