import { methodNotAllowed } from "~/lib/method-not-allowed.server";
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { legacyPageFor } from "~/lib/legacy";

// Legacy paths go to their static pages under public/legacy/; any other unknown route goes to / (SPEC §2).
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const legacy = legacyPageFor(url.pathname);
  if (legacy) return redirect(`${legacy}${url.search}`, 301);
  return redirect("/");
}

export const action = methodNotAllowed(["GET"]);
