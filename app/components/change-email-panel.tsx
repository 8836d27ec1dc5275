import { Button } from "primereact/button";
import { InputText } from "primereact/inputtext";
import { Message } from "primereact/message";
import { Password } from "primereact/password";
import { useState, type FormEvent } from "react";
import { useAuth } from "~/auth/auth-provider";
import { authModule, describeAuthError, localLinkFor, reauthenticateWithPassword } from "~/auth/firebase-actions";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Settings' "E-mail address" panel (issue 35 item 7): the current password proves it is the owner, then Firebase
 * sends a confirmation link to the new address; the address changes only when that link is opened (so a typo
 * cannot lock anyone out), and Firebase tells the old address. Our own copy of the address follows the next time
 * the account signs in (app/domain/users.server.ts keeps it in step with the ID token). Google-only accounts
 * change their address at Google.
 */
export function ChangeEmailPanel({ email }: { email: string | null }) {
  const { firebaseUser, firebaseConfig } = useAuth();
  const [next, setNext] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [localLink, setLocalLink] = useState<string | null>(null);
  const hasPassword = firebaseUser?.providerData.some((provider) => provider.providerId === "password") ?? true;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const address = next.trim();
    setSentTo(null);
    setLocalLink(null);
    if (!EMAIL.test(address)) return setError("Enter a valid email address.");
    if (address.toLowerCase() === (email ?? "").toLowerCase()) return setError("This is the address you have now.");
    if (!firebaseUser?.email) return setError("Sign in again to change your email address.");
    setBusy(true);
    setError(null);
    try {
      await reauthenticateWithPassword(firebaseUser, password, "Your password is not right.");
      const { fb } = await authModule();
      // After confirming, the link lands on the sign-in page: the session of the old address has ended there.
      await fb.verifyBeforeUpdateEmail(firebaseUser, address, { url: `${window.location.origin}/auth?redirect=%2Fsettings` });
      setSentTo(address);
      setPassword("");
      setNext("");
      if (firebaseConfig.emulatorHost) setLocalLink(await localLinkFor(address, "change"));
    } catch (failure) {
      setError(describeAuthError(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="settings-panel" aria-labelledby="email-heading">
      <h2 id="email-heading">E-mail address</h2>
      {!hasPassword ? (
        <p>You sign in with Google: your address is your Google account’s, changed at Google.</p>
      ) : (
        <form className="settings-form" onSubmit={save} aria-label="Change email address">
          {error ? <Message severity="error" text={error} /> : null}
          {sentTo ? (
            <Message
              severity="success"
              text={`We sent a link to ${sentTo}. Your address changes when you open it; until then, sign in with ${email ?? "your current address"}.`}
            />
          ) : null}
          {localLink ? (
            <p className="local-hint" data-testid="local-email-change">
              Local mode sends no email. Open this link to confirm the new address:{" "}
              <a href={localLink} target="_blank" rel="noreferrer">
                confirmation link
              </a>
            </p>
          ) : null}
          <label htmlFor="new-email">New email address</label>
          <InputText id="new-email" type="email" value={next} onChange={(e) => setNext(e.target.value)} autoComplete="email" required />
          <label htmlFor="email-password">Your password</label>
          <Password inputId="email-password" value={password} onChange={(e) => setPassword(e.target.value)} feedback={false} toggleMask required autoComplete="current-password" />
          <Button type="submit" label="Send confirmation link" loading={busy} disabled={!next.trim() || !password} />
        </form>
      )}
    </section>
  );
}
