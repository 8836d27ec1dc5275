import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { BarePage } from "~/components/bare-page";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { layout: false };
export const meta: MetaFunction = () => [{ title: "Import — Scanroom Builder" }];

export default function BuilderImport() {
  return (
    <BarePage title="Import into the Builder">
      <p className="bare-status" data-testid="not-available">Importing scenes is not available yet.</p>
      <p>
        This page will import a scene saved from the Builder, or several model files at once, so that you can continue working on it here.
      </p>
      <p>
        To add a single model today, use <strong>New Model</strong> in the header of any page: it accepts .glb, .ply and .ksplat files, and
        videos or photo sets to scan.
      </p>
      <ul className="bare-links">
        <li><Link to="/dashboard">Go to My Dashboard</Link></li>
        <li><Link to="/builder">About the Builder</Link></li>
      </ul>
    </BarePage>
  );
}
