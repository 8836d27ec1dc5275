import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { quotaLines, type Quotas } from "~/lib/quota-display";
import { useToast } from "./toast-provider";

/** The signed-in user's quotas from GET /v1/user/quotas (SPEC §9), with SPEC's error toast on failure. */
export function QuotaSummary({ refreshKey }: { refreshKey?: unknown }) {
  const { api, user, ready, firebaseUser } = useAuth();
  const toast = useToast();
  const [quotas, setQuotas] = useState<Quotas | null>(null);
  const [failed, setFailed] = useState(false);
  // The call carries the Firebase token, known only once the first sign-in state is.
  const userId = ready && firebaseUser ? user?.id : undefined;

  useEffect(() => {
    if (!userId) return;
    let cancelled = false;
    api<Quotas>("/user/quotas").then(
      (data) => {
        if (cancelled) return;
        setQuotas(data);
        setFailed(false);
      },
      () => {
        if (cancelled) return;
        setFailed(true);
        toast({ severity: "error", summary: "Error!", detail: "Could not fetch user scan quotas." });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [api, userId, toast, refreshKey]);

  return (
    <section className="quota" aria-labelledby="quota-heading" data-testid="quota-summary">
      <h2 id="quota-heading">Your quotas</h2>
      {quotas ? (
        <dl className="quota-list">
          {quotaLines(quotas).map((line) => (
            <div key={line.key} className="quota-line" data-testid={`quota-${line.key}`}>
              <dt>{line.label}</dt>
              <dd>{line.value}</dd>
            </div>
          ))}
        </dl>
      ) : failed ? (
        <p className="quota-note">Quotas are unavailable right now.</p>
      ) : (
        <p className="quota-note">Loading quotas…</p>
      )}
      <p className="quota-note">
        <Link to="/pricing">Plans</Link> · <Link to="/topup">Top up</Link>
      </p>
    </section>
  );
}
