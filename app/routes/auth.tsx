import type { MetaFunction } from "@remix-run/node";
import { useNavigate, useSearchParams } from "@remix-run/react";
import { Button } from "primereact/button";
import { InputText } from "primereact/inputtext";
import { Message } from "primereact/message";
import { Password } from "primereact/password";
import { TabPanel, TabView } from "primereact/tabview";
import { useEffect, useState, type FormEvent } from "react";
import { useAuth } from "~/auth/auth-provider";
import { safeRedirectPath } from "~/lib/safe-redirect";

export const meta: MetaFunction = () => [{ title: "Sign in — Scanroom" }];

function describeAuthError(error: unknown): string {
  const code = (error as { code?: string })?.code ?? "";
  const messages: Record<string, string> = {
    "auth/invalid-credential": "The email or password is not right.",
    "auth/wrong-password": "The email or password is not right.",
    "auth/user-not-found": "The email or password is not right.",
    "auth/email-already-in-use": "An account with this email already exists. Sign in instead.",
    "auth/weak-password": "Choose a password of at least 6 characters.",
    "auth/invalid-email": "Enter a valid email address.",
    "auth/too-many-requests": "Too many attempts. Wait a moment and try again.",
    "auth/network-request-failed": "We could not reach the sign-in service. Check your connection.",
  };
  return messages[code] ?? (error instanceof Error ? error.message : "Sign-in failed.");
}

async function authModule() {
  const [{ firebaseAuth }, fb] = await Promise.all([import("~/auth/firebase.client"), import("firebase/auth")]);
  return { firebaseAuth, fb };
}

export default function AuthPage() {
  const { ready, user, firebaseUser, needsVerification, syncSession, firebaseConfig, signOut } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const redirectTo = safeRedirectPath(params.get("redirect"));
  const [tab, setTab] = useState(0);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [localLink, setLocalLink] = useState<string | null>(null);

  useEffect(() => {
    if (ready && user) navigate(redirectTo, { replace: true });
  }, [ready, user, navigate, redirectTo]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setInfo(null);
    try {
      await work();
    } catch (e) {
      setError(describeAuthError(e));
    } finally {
      setBusy(false);
    }
  };

  const signIn = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const { firebaseAuth, fb } = await authModule();
      await fb.signInWithEmailAndPassword(firebaseAuth(firebaseConfig), email.trim(), password);
    });
  };

  const register = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const { firebaseAuth, fb } = await authModule();
      const credential = await fb.createUserWithEmailAndPassword(firebaseAuth(firebaseConfig), email.trim(), password);
      if (displayName.trim()) await fb.updateProfile(credential.user, { displayName: displayName.trim() });
      await fb.sendEmailVerification(credential.user);
      setInfo(`We sent a verification link to ${email.trim()}. Open it, then press Continue.`);
    });
  };

  const signInWithGoogle = () =>
    run(async () => {
      const { firebaseAuth, fb } = await authModule();
      await fb.signInWithPopup(firebaseAuth(firebaseConfig), new fb.GoogleAuthProvider());
    });

  const continueAfterVerification = () =>
    run(async () => {
      if (!firebaseUser) return;
      await firebaseUser.reload();
      const result = await syncSession(true);
      if (result === "unverified") setError("Email not verified");
    });

  const resend = () =>
    run(async () => {
      const { fb } = await authModule();
      if (firebaseUser) await fb.sendEmailVerification(firebaseUser);
      setInfo("We sent the verification link again.");
    });

  useEffect(() => {
    if (!needsVerification || !firebaseUser?.email || !firebaseConfig.emulatorHost) return;
    const email = firebaseUser.email;
    const timer = setInterval(async () => {
      const response = await fetch(`/auth/local-verification-link?email=${encodeURIComponent(email)}`);
      const body = await response.json().catch(() => null);
      if (body?.data?.link) {
        setLocalLink(body.data.link);
        clearInterval(timer);
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [needsVerification, firebaseUser, firebaseConfig.emulatorHost]);

  if (needsVerification && firebaseUser) {
    return (
      <section className="page auth-page">
        <h1>Verify your email</h1>
        <Message severity="warn" text="Email not verified" />
        <p>
          We sent a verification link to <strong>{firebaseUser.email}</strong>. Open it, then press Continue.
        </p>
        {localLink ? (
          <p className="local-hint" data-testid="local-verification">
            Local mode sends no email. Open this link to verify:{" "}
            <a href={localLink} target="_blank" rel="noreferrer">
              verification link
            </a>
          </p>
        ) : null}
        {info ? <Message severity="info" text={info} /> : null}
        {error ? <Message severity="error" text={error} /> : null}
        <div className="auth-actions">
          <Button label="Continue" onClick={continueAfterVerification} loading={busy} />
          <Button label="Resend link" outlined onClick={resend} disabled={busy} />
          <Button label="Use another account" text onClick={() => signOut()} disabled={busy} />
        </div>
      </section>
    );
  }

  return (
    <section className="page auth-page">
      <h1>Welcome to Scanroom</h1>
      {error ? <Message severity="error" text={error} className="auth-message" /> : null}
      {info ? <Message severity="info" text={info} className="auth-message" /> : null}
      <TabView activeIndex={tab} onTabChange={(e) => setTab(e.index)}>
        <TabPanel header="Sign in">
          <form onSubmit={signIn} className="auth-form" aria-label="Sign in">
            <label htmlFor="signin-email">Email</label>
            <InputText id="signin-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
            <label htmlFor="signin-password">Password</label>
            <Password inputId="signin-password" value={password} onChange={(e) => setPassword(e.target.value)} feedback={false} toggleMask required autoComplete="current-password" />
            <Button type="submit" label="Sign in" loading={busy} />
          </form>
        </TabPanel>
        <TabPanel header="Register">
          <form onSubmit={register} className="auth-form" aria-label="Register">
            <label htmlFor="register-name">Display name</label>
            <InputText id="register-name" value={displayName} onChange={(e) => setDisplayName(e.target.value)} autoComplete="nickname" />
            <label htmlFor="register-email">Email</label>
            <InputText id="register-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
            <label htmlFor="register-password">Password</label>
            <Password inputId="register-password" value={password} onChange={(e) => setPassword(e.target.value)} feedback={false} toggleMask required autoComplete="new-password" />
            <Button type="submit" label="Create account" loading={busy} />
          </form>
        </TabPanel>
      </TabView>
      {firebaseConfig.googleSignIn ? (
        <Button label="Continue with Google" icon="pi pi-google" outlined onClick={signInWithGoogle} disabled={busy} />
      ) : null}
    </section>
  );
}
