import { methodNotAllowed } from "~/lib/method-not-allowed.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticateAdmin } from "~/shopify.server";

// Everything under the auth prefix (session-token bounce page, exit-iframe) is answered by the library,
// which throws the response.
export async function loader({ request }: LoaderFunctionArgs) {
  await authenticateAdmin(request);
  return null;
}

export const action = methodNotAllowed(["GET"]);
