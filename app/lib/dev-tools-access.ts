/**
 * SPEC §6: in production the dev-mode toggle and developer tools are for admins only, and admin test
 * components are never shown there. Outside production everyone may use them (local development).
 */
export function devToolsAccess({ profile, isAdmin, devMode }: { profile: string; isAdmin: boolean; devMode: boolean }) {
  const production = profile === "production";
  const mayToggle = !production || isAdmin;
  return { mayToggle, showTools: devMode && mayToggle, showTestComponents: devMode && mayToggle && !production };
}
