import { Link, NavLink, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { Button } from "primereact/button";
import { Menu } from "primereact/menu";
import type { MenuItem } from "primereact/menuitem";
import { useEffect, useRef, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import type { PublicEnv } from "~/env.server";
import { useMediaQuery } from "~/lib/use-media-query";
import { useToast } from "./toast-provider";
import { useUploadDialog } from "./upload-dialog-provider";

/** SPEC §2: the menu collapses to a mobile menu at 1279px (the menu's own default would be 960px). */
export const MOBILE_MENU_QUERY = "(max-width: 1279px)";

const MAIN_LINKS = [
  { to: "/", label: "Explore", end: true },
  { to: "/dashboard", label: "My Dashboard" },
  { to: "/pricing", label: "Pricing" },
  { to: "/tutorial", label: "Tutorial" },
];

/** Login's redirect: the current full path, or the existing redirect value when already on /auth. */
export function loginRedirectTarget(pathname: string, search: string, existingRedirect: string | null): string {
  if (pathname === "/auth") return existingRedirect ?? "/";
  return pathname + search;
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
  const moreMenu = useRef<Menu>(null);

  // The mobile menu closes whenever the breakpoint changes or the page changes.
  useEffect(() => setMobileOpen(false), [isMobile, location.pathname]);

  const moreItems: MenuItem[] = [
    { label: "Contact Us", command: () => navigate("/contact") },
    { label: "Shopify App", url: env.shopifyListingUrl, target: "_blank" },
    { label: "Website", url: env.websiteUrl, target: "_blank" },
  ];

  const redirect = loginRedirectTarget(location.pathname, location.search, searchParams.get("redirect"));

  const logout = async () => {
    await signOut();
    toast({ severity: "success", summary: "Logout success." });
    navigate("/");
  };

  const links = (
    <ul className="site-nav-list">
      {MAIN_LINKS.map((link) => (
        <li key={link.to}>
          <NavLink to={link.to} end={link.end} className="site-nav-link">
            {link.label}
          </NavLink>
        </li>
      ))}
      <li>
        <button
          type="button"
          className="site-nav-link site-nav-more"
          aria-haspopup="menu"
          onClick={(event) => moreMenu.current?.toggle(event)}
        >
          More <i className="pi pi-angle-down" aria-hidden="true" />
        </button>
        <Menu model={moreItems} popup ref={moreMenu} />
      </li>
    </ul>
  );

  return (
    <header className="site-header">
      <Link to="/" className="site-logo" aria-label="Scanroom home">
        <img src="/favicon.svg" alt="" width={28} height={28} /> <span>Scanroom</span>
      </Link>
      {isMobile ? (
        <Button
          icon={mobileOpen ? "pi pi-times" : "pi pi-bars"}
          text
          aria-label="Menu"
          aria-expanded={mobileOpen}
          data-testid="mobile-menu-toggle"
          onClick={() => setMobileOpen((v) => !v)}
        />
      ) : (
        <nav aria-label="Main" className="site-nav" data-testid="desktop-menu">
          {links}
        </nav>
      )}
      {isMobile && mobileOpen ? (
        <nav aria-label="Main" className="site-nav-mobile" data-testid="mobile-menu">
          {links}
        </nav>
      ) : null}
      <div className="site-header-actions">
        <Link to="/dashboard#notifications" className="p-button p-button-text p-button-icon-only" aria-label="Notifications">
          <i className="pi pi-bell" aria-hidden="true" />
        </Link>
        {user ? (
          <>
            <Button label="New Model" icon="pi pi-plus" onClick={() => openUpload()} data-testid="new-model" />
            <Button label="Logout" text onClick={logout} />
            <Link to="/settings" className="site-avatar" aria-label="Settings">
              {user.avatarUrl ? (
                <img src={user.avatarUrl} alt="" width={32} height={32} />
              ) : (
                <span aria-hidden="true">{(user.displayName ?? user.email ?? "?").slice(0, 1).toUpperCase()}</span>
              )}
            </Link>
          </>
        ) : ready ? (
          <Link to={`/auth?redirect=${encodeURIComponent(redirect)}`} className="p-button" data-testid="login-link">
            Login / Register
          </Link>
        ) : null}
      </div>
    </header>
  );
}
