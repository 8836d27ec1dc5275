import { Link } from "@remix-run/react";
import { Button } from "primereact/button";
import { useAuth } from "~/auth/auth-provider";
import type { PublicEnv } from "~/env.server";
import { useDevMode } from "~/lib/dev-mode";
import { devToolsAccess } from "~/lib/dev-tools-access";

export const COPYRIGHT_YEAR = 2025;

export function SiteFooter({ env }: { env: PublicEnv }) {
  const { user } = useAuth();
  const [devMode, toggleDevMode] = useDevMode();
  // SPEC §6: in production the dev-mode toggle is for admins only.
  const canToggle = devToolsAccess({ profile: env.profile, isAdmin: user?.isAdmin === true, devMode }).mayToggle;
  return (
    <footer className="site-footer">
      <span>© {COPYRIGHT_YEAR} Scanroom. All rights reserved.</span>
      <nav aria-label="Footer" className="site-footer-links">
        {canToggle ? (
          <Button
            text
            size="small"
            label={devMode ? "Dev mode: on" : "Dev mode: off"}
            aria-pressed={devMode}
            onClick={toggleDevMode}
          />
        ) : null}
        <Link to="/contact">Contact Us</Link>
        <Link to="/privacy-policy">Privacy Policy</Link>
        <a href={env.termsUrl} target="_blank" rel="noreferrer">
          Terms of Service
        </a>
      </nav>
    </footer>
  );
}
