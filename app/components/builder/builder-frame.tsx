import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** The frame of the Builder's list and import pages ("no layout", SPEC §2): a slim bar with the way back. */
export function BuilderFrame({ title, children, back }: { title: string; children: ReactNode; back?: { to: string; label: string } }) {
  return (
    <div className="builder-page">
      <div className="bare-bar builder-bar">
        <Link to="/" className="site-logo" aria-label="Scanroom home">
          <img src="/favicon.svg" alt="" width={24} height={24} /> <span>Scanroom</span>
        </Link>
        <nav aria-label="Builder">
          <Link to="/builder">My scenes</Link>
          <Link to="/dashboard">My Dashboard</Link>
          {back ? <Link to={back.to}>{back.label}</Link> : null}
        </nav>
      </div>
      <main className="builder-content">
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  );
}
