import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { BarePage } from "~/components/bare-page";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { layout: false };
export const meta: MetaFunction = () => [{ title: "Builder — Scanroom" }];

export default function Builder() {
  return (
    <BarePage title="Builder">
      <p className="bare-status" data-testid="not-available">The Builder is not available yet.</p>
      <p>
        The Builder will let you arrange your models into scenes: place and scale them, add annotations with text and pictures, set the
        viewer’s background and lighting, and record camera tours that visitors can play in the viewer and in embeds.
      </p>
      <p>Until then, you can rename your models, change who sees them, set their thumbnail and share or embed them.</p>
      <ul className="bare-links">
        <li><Link to="/dashboard">Go to My Dashboard</Link></li>
        <li><Link to="/">Explore models</Link></li>
      </ul>
    </BarePage>
  );
}
