import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getPageUser } from "~/auth/require-user.server";
import { readForm } from "~/lib/read-form.server";
import { CHECKOUT_PAGES, checkoutFailureOf, createPackageCheckout, createPlanCheckout } from "~/domain/billing-checkout.server";
import { PAID_PLAN_TYPES } from "~/lib/stripe-objects";

// POST /billing/checkout from the pricing and top-up pages (a plain form, works without JavaScript):
// sends the signed-in user to Stripe Checkout for a plan or a credit package (docs/decisions/009).
const formSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("plan"), plan_type: z.enum(PAID_PLAN_TYPES), page: z.enum(CHECKOUT_PAGES) }),
  z.object({ kind: z.literal("package"), package_id: z.string().uuid(), page: z.enum(CHECKOUT_PAGES) }),
]);

export async function action({ request }: ActionFunctionArgs) {
  const form = formSchema.safeParse(await readForm(request));
  if (!form.success) return redirect("/pricing?checkout=failed&reason=invalid", 303);
  const { page } = form.data;
  const user = await getPageUser(request);
  if (!user) return redirect(`/auth?redirect=${encodeURIComponent(`/${page}`)}`, 303);
  try {
    const { url } =
      form.data.kind === "plan"
        ? await createPlanCheckout({ userId: user.id, planType: form.data.plan_type })
        : await createPackageCheckout({ userId: user.id, packageId: form.data.package_id });
    return redirect(url, 303);
  } catch (error) {
    const reason = checkoutFailureOf(error);
    if (!reason) throw error;
    return redirect(`/${page}?checkout=failed&reason=${reason}`, 303);
  }
}

export const loader = () => redirect("/pricing");
