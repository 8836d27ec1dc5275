import { Link, NavLink, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { Button } from "primereact/button";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import type { PublicEnv } from "~/env.server";
import { useMediaQuery } from "~/components/use-media-query";
import { NotificationsBell } from "./notifications-bell";
import { useToast } from "./toast-provider";
import { useUploadDialog } from "./upload-dialog-provider";
import { useDismiss } from "~/components/use-dismiss";

/**
 * SPEC §2: the menu collapses to a mobile menu at 1279px (the menu's own default would be 960px).
 * CSS hides one menu or the other at the same width (site.css), so the server-rendered page is right
 * before hydration; this query closes the mobile menu when the breakpoint changes.
 */
export const MOBILE_MENU_QUERY = "(max-width: 1279px)";

const MAIN_LINKS = [
  { to: "/", label: "Explore", end: true },
  { to: "/dashboard", label: "My Dashboard" },
  { to: "/pricing", label: "Pricing" },
  { to: "/tutorial", label: "Tutorial" },
  { to: "/builder", label: "Builder" },
];

/**
 * Login's redirect: the current full path, or the existing redirect value when already on /auth
 * (null there when it has none, so the link is plain /auth).
 */
export function loginRedirectTarget(pathname: string, search: string, existingRedirect: string | null, hash = ""): string | null {
  if (pathname === "/auth") return existingRedirect;
  return pathname + search + hash;
}

function MoreMenu({ env, idSuffix }: { env: PublicEnv; idSuffix: string }) {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const rootRef = useRef<HTMLLIElement>(null);
  const listId = `${useId()}-more-${idSuffix}`;
  useEffect(() => setOpen(false), [location.pathname]);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, rootRef);
  return (
    <li className="site-more" ref={rootRef}>
      <button
        type="button"
        className="site-nav-link site-more-button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((v) => !v)}
      >
        More <i className={open ? "pi pi-angle-down" : "pi pi-angle-right"} aria-hidden="true" />
      </button>
      <ul id={listId} className="site-more-list" hidden={!open}>
        <li>
          <Link to="/contact" className="site-nav-link">
            Contact Us
          </Link>
        </li>
        <li>
          <a href={env.shopifyListingUrl} target="_blank" rel="noopener noreferrer" className="site-nav-link">
            Shopify App <i className="pi pi-external-link" aria-hidden="true" />
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
        <li>
          <a href={env.websiteUrl} className="site-nav-link">
            Website
          </a>
        </li>
      </ul>
    </li>
  );
}

function MenuLinks({ env, idSuffix, admin }: { env: PublicEnv; idSuffix: string; admin: boolean }) {
  return (
    <ul className="site-nav-list">
      {[...MAIN_LINKS, ...(admin ? [{ to: "/admin", label: "Admin" }] : [])].map((link) => (
        <li key={link.to}>
          <NavLink to={link.to} end={"end" in link ? link.end : false} className="site-nav-link">
            {link.label}
          </NavLink>
        </li>
      ))}
      <MoreMenu env={env} idSuffix={idSuffix} />
    </ul>
  );
}

export function SiteHeader({ env }: { env: PublicEnv }) {
  const { user, ready, signOut } = useAuth();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const { open: openUpload } = useUploadDialog();
  const isMobile = useMediaQuery(MOBILE_MENU_QUERY);
  const [mobileOpen, setMobileOpen] = useState(false);

  // The mobile menu closes whenever the breakpoint changes or the page changes.
  useEffect(() => setMobileOpen(false), [isMobile, location.pathname]);

  const redirect = loginRedirectTarget(location.pathname, location.search, searchParams.get("redirect"), location.hash);
  const loginHref = redirect ? `/auth?redirect=${encodeURIComponent(redirect)}` : "/auth";

  const logout = async () => {
    await signOut();
    toast({ severity: "success", summary: "Logout success." });
    navigate("/");
  };

  return (
    <header className="site-header">
      <Link to="/" className="site-logo" aria-label="Scanroom home">
        <img src="/favicon.svg" alt="" width={28} height={28} /> <span className="site-logo-name">Scanroom</span>
      </Link>
      <nav aria-label="Main" className="site-nav" data-testid="desktop-menu">
        <MenuLinks env={env} idSuffix="desktop" admin={!!user?.isAdmin} />
      </nav>
      <Button
        className="site-menu-toggle"
        icon={mobileOpen ? "pi pi-times" : "pi pi-bars"}
        text
        aria-label="Menu"
        aria-expanded={mobileOpen}
        data-testid="mobile-menu-toggle"
        onClick={() => setMobileOpen((v) => !v)}
      />
      <div className="site-header-actions">
        <NotificationsBell />
        {user ? (
          <>
            <Button label="New Model" icon="pi pi-plus" className="site-compact-button" onClick={() => openUpload()} data-testid="new-model" />
            <Button label="Logout" icon="pi pi-sign-out" text className="site-compact-button" onClick={logout} />
            <Link to="/settings" className="site-avatar" aria-label="Settings" data-testid="settings-avatar">
              {user.avatarUrl ? (
                <img src={user.avatarUrl} alt="" width={32} height={32} />
              ) : (
                <span aria-hidden="true">{(user.displayName ?? user.email ?? "?").slice(0, 1).toUpperCase()}</span>
              )}
            </Link>
          </>
        ) : ready ? (
          <Link to={loginHref} className="p-button" data-testid="login-link">
            Login / Register
          </Link>
        ) : null}
      </div>
      {mobileOpen ? (
        <nav aria-label="Main (mobile)" className="site-nav-mobile" data-testid="mobile-menu">
          <MenuLinks env={env} idSuffix="mobile" admin={!!user?.isAdmin} />
        </nav>
      ) : null}
    </header>
  );
}
