import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { BarePage } from "~/components/bare-page";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { layout: false };
export const meta: MetaFunction = () => [{ title: "Riverchain integration — Scanroom" }];

export default function Riverchain() {
  return (
    <BarePage title="Riverchain integration">
      <p className="bare-status" data-testid="not-available">The Riverchain integration is not available in this version of Scanroom.</p>
      <p>
        This address is kept for the Riverchain integration, which connected Scanroom models to a partner platform. If you reached it from a
        Riverchain link and need a model that was shared there, <Link to="/contact">contact us</Link> with the link and we will help you find it.
      </p>
      <ul className="bare-links">
        <li><Link to="/">Explore models</Link></li>
      </ul>
    </BarePage>
  );
}
