import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** The frame of "no layout" pages (SPEC §2): no site header or footer, just a slim bar home. */
export function BarePage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="bare-page">
      <div className="bare-bar">
        <Link to="/" className="site-logo" aria-label="Scanroom home">
          <img src="/favicon.svg" alt="" width={24} height={24} /> <span>Scanroom</span>
        </Link>
      </div>
      <div className="bare-content">
        <h1>{title}</h1>
        {children}
      </div>
    </div>
  );
}
