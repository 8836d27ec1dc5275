import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getPageUser } from "~/auth/require-user.server";
import { readForm } from "~/lib/read-form.server";
import { checkoutFailureOf, createBillingPortalSession } from "~/domain/billing-checkout.server";

// POST /billing/portal: Stripe's customer portal (payment methods, invoices, cancelling), back to /settings.
const formSchema = z.object({ page: z.enum(["settings", "pricing"]).default("settings") });

export async function action({ request }: ActionFunctionArgs) {
  const form = formSchema.safeParse(await readForm(request));
  const page = form.success ? form.data.page : "settings";
  const user = await getPageUser(request);
  if (!user) return redirect(`/auth?redirect=${encodeURIComponent(`/${page}`)}`, 303);
  try {
    const { url } = await createBillingPortalSession({ userId: user.id });
    return redirect(url, 303);
  } catch (error) {
    const reason = checkoutFailureOf(error);
    if (!reason) throw error;
    return redirect(`/${page}?checkout=failed&reason=${reason}`, 303);
  }
}

export const loader = () => redirect("/settings");
