import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { BarePage } from "~/components/bare-page";

/** The Builder's list and import pages: a bare page with the Builder's links and the way back. */
export function BuilderFrame({ title, children, back }: { title: string; children: ReactNode; back?: { to: string; label: string } }) {
  return (
    <BarePage
      title={title}
      wide
      nav={
        <>
          <Link to="/builder">My scenes</Link>
          <Link to="/dashboard">My Dashboard</Link>
          {back ? <Link to={back.to}>{back.label}</Link> : null}
        </>
      }
    >
      {children}
    </BarePage>
  );
}
