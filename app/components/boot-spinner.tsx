import { ProgressSpinner } from "primereact/progressspinner";
import { useAuth } from "~/auth/auth-provider";

/** Full-screen spinner until the first sign-in state is known (SPEC §2). */
export function BootSpinner() {
  const { ready } = useAuth();
  if (ready) return null;
  return (
    <div className="boot-spinner" role="status" aria-live="polite" data-testid="boot-spinner">
      <ProgressSpinner aria-label="Loading" />
      <span className="sr-only">Loading…</span>
    </div>
  );
}
