import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigate, useRevalidator } from "@remix-run/react";
import { Button } from "primereact/button";
import { Dialog } from "primereact/dialog";
import { useState, type FormEvent } from "react";
import { useAuth } from "~/auth/auth-provider";
import { requirePageUser } from "~/auth/require-user.server";
import { BillingPanel } from "~/components/billing-panel";
import { ChangeEmailPanel } from "~/components/change-email-panel";
import { ChangePasswordPanel } from "~/components/change-password-panel";
import { LedgerHistory } from "~/components/ledger-history";
import { QuotaSummary } from "~/components/quota-summary";
import { useToast } from "~/components/toast-provider";
import { getBillingOverview } from "~/domain/billing-overview.server";
import { listLedgerHistory } from "~/domain/ledger-history.server";
import { presentPlan } from "~/domain/plan-presenter";
import { presentCurrentUser } from "~/domain/user-presenter";
import { getCurrentUserWithPlan } from "~/domain/users.server";
import { xhrPut } from "~/components/upload-flows";
import { formatDate } from "~/lib/format";
import { checkImageFile, IMAGE_ACCEPT } from "~/lib/image-rules";
import { checkoutFailureMessage } from "~/lib/checkout-messages";

export const meta: MetaFunction = () => [{ title: "Settings — Scanroom" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const page = await requirePageUser(request);
  const user = await getCurrentUserWithPlan({ userId: page.id });
  const params = new URL(request.url).searchParams;
  const [billing, ledger] = await Promise.all([getBillingOverview({ userId: page.id }), listLedgerHistory({ userId: page.id, before: params.get("ledger_before") })]);
  return json({
    user: presentCurrentUser(user),
    plan: user.subscription ? presentPlan(user.subscription.plan) : null,
    billing,
    billingFailure: params.get("checkout") === "failed" ? checkoutFailureMessage(params.get("reason")) : null,
    ledger,
  });
}

const CONFIRM_WORD = "DELETE";

export default function Settings() {
  const { user, plan, billing, billingFailure, ledger } = useLoaderData<typeof loader>();
  const { api, signOut } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [name, setName] = useState(user.display_name ?? "");
  const [busy, setBusy] = useState<null | "name" | "avatar" | "delete">(null);
  const [deleting, setDeleting] = useState(false);
  const [confirmText, setConfirmText] = useState("");

  const fail = (error: unknown) => toast({ severity: "error", summary: "Error!", detail: (error as Error).message });

  const saveName = async (event: FormEvent) => {
    event.preventDefault();
    setBusy("name");
    try {
      await api("/user", { method: "PATCH", body: { display_name: name } });
      toast({ severity: "success", summary: "Saved", detail: "Your display name was updated." });
      revalidator.revalidate();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  };

  const uploadAvatar = async (file: File | undefined) => {
    if (!file) return;
    const problem = checkImageFile(file);
    if (problem) return toast({ severity: "warn", summary: "Avatar not changed", detail: problem });
    setBusy("avatar");
    try {
      const link = await api<{ path: string; url: string }>("/user/avatar", { method: "POST" });
      await xhrPut(link.url, file, () => undefined);
      await api("/user", { method: "PATCH", body: { avatar_path: link.path } });
      toast({ severity: "success", summary: "Saved", detail: "Your avatar was updated." });
      revalidator.revalidate();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  };

  const removeAvatar = async () => {
    setBusy("avatar");
    try {
      await api("/user", { method: "PATCH", body: { avatar_path: null } });
      revalidator.revalidate();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  };

  const deleteAccount = async () => {
    setBusy("delete");
    try {
      await api("/user", { method: "DELETE" });
      await signOut().catch(() => undefined);
      navigate("/sorry-to-see-you-go", { replace: true });
    } catch (error) {
      fail(error);
      setBusy(null);
    }
  };

  const initial = (user.display_name ?? user.email ?? "?").slice(0, 1).toUpperCase();
  return (
    <section className="page settings">
      <h1>Settings</h1>
      <div className="settings-grid">
        <section className="settings-panel" aria-labelledby="profile-heading">
          <h2 id="profile-heading">Profile</h2>
          <form onSubmit={saveName} className="settings-form">
            <label htmlFor="settings-name">Display name</label>
            <input
              id="settings-name"
              className="p-inputtext"
              required
              maxLength={60}
              value={name}
              aria-describedby="settings-name-note"
              onChange={(e) => setName(e.target.value)}
            />
            <p id="settings-name-note" className="settings-note">
              Shown with your models, on your profile and in embeds. Your email is never shown to others.
            </p>
            <Button type="submit" label="Save name" loading={busy === "name"} disabled={!name.trim() || busy !== null} />
          </form>
          <div className="settings-avatar-row">
            <span className="profile-avatar" data-testid="settings-avatar-preview">
              {user.avatar_url ? <img src={user.avatar_url} alt="Your avatar" width={96} height={96} /> : <span aria-hidden="true">{initial}</span>}
            </span>
            <div className="settings-form">
              <label htmlFor="settings-avatar">Avatar (JPEG, PNG, WebP or GIF, up to 2 MB)</label>
              <input id="settings-avatar" type="file" accept={IMAGE_ACCEPT} disabled={busy !== null} onChange={(e) => void uploadAvatar(e.target.files?.[0])} />
              {user.avatar_url ? <Button type="button" text severity="danger" label="Remove avatar" onClick={removeAvatar} disabled={busy !== null} /> : null}
            </div>
          </div>
          <p>
            Your public profile: <Link to={`/u/${user.id}`}>/u/{user.id}</Link>
          </p>
        </section>
        <section className="settings-panel" aria-labelledby="account-heading">
          <h2 id="account-heading">Account</h2>
          <dl className="settings-facts">
            <div>
              <dt>Email</dt>
              <dd>{user.email ?? "—"}</dd>
            </div>
            <div>
              <dt>Email verification</dt>
              <dd data-testid="email-verification">{user.email_verified ? "Verified" : "Not verified"}</dd>
            </div>
            <div>
              <dt>Current plan</dt>
              <dd data-testid="current-plan">
                {plan ? `${plan.name} (${plan.price.formatted}/${plan.price.interval})` : "No plan"}
              </dd>
            </div>
            {user.current_period_end ? (
              <div>
                <dt>Quotas renew on</dt>
                <dd>{formatDate(user.current_period_end)}</dd>
              </div>
            ) : null}
          </dl>
          <p>
            <Link to="/pricing">Compare plans</Link> · <Link to="/topup">Buy more credits</Link>
          </p>
          {user.is_admin ? (
            <p>
              <Link to="/admin">Admin area</Link>
            </p>
          ) : null}
        </section>
        <ChangeEmailPanel email={user.email} />
        <ChangePasswordPanel email={user.email} displayName={user.display_name} />
        <QuotaSummary />
        <BillingPanel billing={billing} failure={billingFailure} />
        <LedgerHistory entries={ledger.entries} olderHref={ledger.next_before ? `/settings?ledger_before=${ledger.next_before}#credit-history` : null} />
        <section className="settings-panel settings-danger" aria-labelledby="danger-heading">
          <h2 id="danger-heading">Delete account</h2>
          <p>Deleting your account removes all your models, their files and your sign-in for good. This cannot be undone.</p>
          <Button type="button" severity="danger" label="Delete my account" onClick={() => setDeleting(true)} />
        </section>
      </div>
      <Dialog header="Delete your account?" visible={deleting} onHide={() => busy !== "delete" && setDeleting(false)} style={{ width: "30rem" }}>
        <form
          className="settings-form"
          onSubmit={(event) => {
            event.preventDefault();
            void deleteAccount();
          }}
        >
          <p>All your models and files will be deleted. Type {CONFIRM_WORD} to confirm.</p>
          <label htmlFor="delete-confirm">Confirmation</label>
          <input id="delete-confirm" className="p-inputtext" autoComplete="off" value={confirmText} onChange={(e) => setConfirmText(e.target.value)} />
          <Button type="submit" severity="danger" label="Delete account for good" loading={busy === "delete"} disabled={confirmText.trim() !== CONFIRM_WORD} />
        </form>
      </Dialog>
    </section>
  );
}
