import { getPageUser } from "~/auth/require-user.server";
import { presentCreditPackage, presentPlan } from "~/domain/plan-presenter";
import { listCreditPackages, listPlans } from "~/domain/plans.server";
import { getCurrentUserWithPlan } from "~/domain/users.server";

/** What /pricing and /topup show: plans and credit packages from the database, and the visitor's plan. */
export async function loadPlansPage(request: Request) {
  const user = await getPageUser(request);
  const [plans, packages, current] = await Promise.all([
    listPlans(),
    listCreditPackages(),
    user ? getCurrentUserWithPlan({ userId: user.id }) : null,
  ]);
  return {
    plans: plans.map(presentPlan),
    packages: packages.map(presentCreditPackage),
    currentPlanId: current?.subscription?.planId ?? null,
    signedIn: user !== null,
  };
}
