import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * The frame of "no layout" pages (SPEC §2): no site header or footer, just a slim bar home, with
 * optional links on the right (`nav`) and a wider column for grids (`wide`).
 */
export function BarePage({ title, children, nav, wide = false }: { title: string; children: ReactNode; nav?: ReactNode; wide?: boolean }) {
  return (
    <div className="bare-page">
      <div className="bare-bar">
        <Link to="/" className="site-logo" aria-label="Scanroom home">
          <img src="/favicon.svg" alt="" width={24} height={24} /> <span>Scanroom</span>
        </Link>
        {nav ? <nav className="bare-nav">{nav}</nav> : null}
      </div>
      <div className={wide ? "bare-content bare-content-wide" : "bare-content"}>
        <h1>{title}</h1>
        {children}
      </div>
    </div>
  );
}
