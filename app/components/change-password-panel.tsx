import { Button } from "primereact/button";
import { Message } from "primereact/message";
import { Password } from "primereact/password";
import { useState, type FormEvent } from "react";
import { useAuth } from "~/auth/auth-provider";
import { authModule, describeAuthError, reauthenticateWithPassword } from "~/auth/firebase-actions";
import { passwordProblem } from "~/auth/password-rule";
import { NewPasswordField } from "./new-password-field";

/**
 * Settings' "Password" panel (issue 35 item 7): the current password proves it is the owner at the keyboard
 * (Firebase asks for a recent sign-in anyway), the new one follows the site's rule. Accounts that sign in
 * with Google only have no password here to change.
 */
export function ChangePasswordPanel({ email, displayName }: { email: string | null; displayName: string | null }) {
  const { firebaseUser } = useAuth();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const hasPassword = firebaseUser?.providerData.some((provider) => provider.providerId === "password") ?? true;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    const problem = passwordProblem(next, { email: email ?? undefined, name: displayName ?? undefined });
    if (problem) return setError(problem);
    if (next === current) return setError("The new password is the one you have now.");
    if (!firebaseUser?.email) return setError("Sign in again to change your password.");
    setBusy(true);
    setError(null);
    try {
      await reauthenticateWithPassword(firebaseUser, current, "Your current password is not right.");
      const { fb } = await authModule();
      await fb.updatePassword(firebaseUser, next);
      setCurrent("");
      setNext("");
      setDone(true);
    } catch (failure) {
      setError(describeAuthError(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="settings-panel" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      {!hasPassword ? (
        <p>You sign in with Google; there is no Scanroom password to change.</p>
      ) : (
        <form className="settings-form" onSubmit={save} aria-label="Change password">
          {error ? <Message severity="error" text={error} /> : null}
          {done ? <Message severity="success" text="Your password was changed. Use the new one next time you sign in." /> : null}
          <label htmlFor="current-password">Current password</label>
          <Password inputId="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} feedback={false} toggleMask required autoComplete="current-password" />
          <NewPasswordField inputId="changed-password" label="New password" value={next} onChange={setNext} account={{ email: email ?? undefined, name: displayName ?? undefined }} />
          <Button type="submit" label="Change password" loading={busy} disabled={!current || !next} />
        </form>
      )}
    </section>
  );
}
