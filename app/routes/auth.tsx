import type { MetaFunction } from "@remix-run/node";
import { Link, useNavigate, useSearchParams } from "@remix-run/react";
import { Button } from "primereact/button";
import { InputText } from "primereact/inputtext";
import { Message } from "primereact/message";
import { Password } from "primereact/password";
import { TabPanel, TabView } from "primereact/tabview";
import { useEffect, useState, type FormEvent } from "react";
import { useAuth } from "~/auth/auth-provider";
import { authModule, describeAuthError, localLinkFor } from "~/auth/firebase-actions";
import { passwordProblem } from "~/auth/password-rule";
import { NewPasswordField } from "~/components/new-password-field";
import { safeRedirectPath } from "~/lib/safe-redirect";

export const meta: MetaFunction = () => [{ title: "Sign in — Scanroom" }];


/** The page Firebase's password-reset link opens: checks the code, then sets the new password. */
function ResetPasswordForm({ code }: { code: string }) {
  const { firebaseConfig } = useAuth();
  const [account, setAccount] = useState<string | null>(null);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    authModule()
      .then(({ firebaseAuth, fb }) => fb.verifyPasswordResetCode(firebaseAuth(firebaseConfig), code))
      .then(
        (email) => current && setAccount(email),
        (e) => current && setError(describeAuthError(e)),
      );
    return () => {
      current = false;
    };
  }, [code, firebaseConfig]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const problem = passwordProblem(password, { email: account ?? undefined });
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      const { firebaseAuth, fb } = await authModule();
      await fb.confirmPasswordReset(firebaseAuth(firebaseConfig), code, password);
      setDone(true);
    } catch (e) {
      setError(describeAuthError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page auth-page">
      <h1>Choose a new password</h1>
      {error ? <Message severity="error" text={error} className="auth-message" /> : null}
      {done ? (
        <>
          <Message severity="success" text="Your password has been changed." className="auth-message" />
          <p>
            <Link to="/auth">Sign in with your new password</Link>
          </p>
        </>
      ) : account ? (
        <form onSubmit={save} className="auth-form" aria-label="Choose a new password">
          <p>
            For <strong>{account}</strong>
          </p>
          <NewPasswordField inputId="new-password" label="New password" value={password} onChange={setPassword} account={{ email: account }} />
          <Button type="submit" label="Save new password" loading={busy} />
        </form>
      ) : error ? (
        <p>
          <Link to="/auth">Back to sign in</Link>
        </p>
      ) : (
        <p>Checking the link…</p>
      )}
    </section>
  );
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
  const [forgot, setForgot] = useState(false);
  const [localResetLink, setLocalResetLink] = useState<string | null>(null);
  // Firebase's password-reset link points here: /auth?mode=resetPassword&oobCode=…
  const resetCode = params.get("mode") === "resetPassword" ? params.get("oobCode") : null;

  // A new account that has just verified its address lands on its dashboard, whose first step is one button
  // (issue 35 item 7), unless the way here named where to return.
  const [cameThroughVerification, setCameThroughVerification] = useState(false);
  useEffect(() => {
    if (needsVerification) setCameThroughVerification(true);
  }, [needsVerification]);
  const landing = cameThroughVerification && !params.get("redirect") ? "/dashboard" : redirectTo;
  useEffect(() => {
    if (ready && user && !resetCode) navigate(landing, { replace: true });
  }, [ready, user, navigate, landing, resetCode]);

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
    // The site's rule (Firebase asks only for 6 characters); nothing is created when it is not met.
    const problem = passwordProblem(password, { email, name: displayName });
    if (problem) {
      setInfo(null);
      return setError(problem);
    }
    return run(async () => {
      const { firebaseAuth, fb } = await authModule();
      const credential = await fb.createUserWithEmailAndPassword(firebaseAuth(firebaseConfig), email.trim(), password);
      if (displayName.trim()) await fb.updateProfile(credential.user, { displayName: displayName.trim() });
      // The verify page that follows says where the link went.
      await fb.sendEmailVerification(credential.user);
    });
  };

  const sendPasswordReset = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    return run(async () => {
      const { firebaseAuth, fb } = await authModule();
      try {
        await fb.sendPasswordResetEmail(firebaseAuth(firebaseConfig), address);
      } catch (e) {
        // Whether an address has an account is not told to whoever asks.
        if ((e as { code?: string })?.code !== "auth/user-not-found") throw e;
      }
      setInfo(`If ${address} has an account, we sent it a link to choose a new password.`);
      setLocalResetLink(firebaseConfig.emulatorHost ? await localLinkFor(address, "reset") : null);
    });
  };

  const signInWithGoogle = () =>
    run(async () => {
      const { firebaseAuth, fb } = await authModule();
      await fb.signInWithPopup(firebaseAuth(firebaseConfig), new fb.GoogleAuthProvider(), fb.browserPopupRedirectResolver);
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
      const link = await localLinkFor(email, "verify");
      if (link) {
        setLocalLink(link);
        clearInterval(timer);
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [needsVerification, firebaseUser, firebaseConfig.emulatorHost]);

  if (resetCode) return <ResetPasswordForm code={resetCode} />;

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
          {forgot ? (
            <form onSubmit={sendPasswordReset} className="auth-form" aria-label="Reset your password">
              <p>Enter your account&apos;s email address and we will send you a link to choose a new password.</p>
              <label htmlFor="reset-email">Email</label>
              <InputText id="reset-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
              <Button type="submit" label="Send reset link" loading={busy} />
              {localResetLink ? (
                <p className="local-hint" data-testid="local-password-reset">
                  Local mode sends no email. Open this link to choose a new password: <a href={localResetLink}>password reset link</a>
                </p>
              ) : null}
              <Button type="button" link label="Back to sign in" onClick={() => setForgot(false)} />
            </form>
          ) : (
            <form onSubmit={signIn} className="auth-form" aria-label="Sign in">
              <label htmlFor="signin-email">Email</label>
              <InputText id="signin-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
              <label htmlFor="signin-password">Password</label>
              <Password inputId="signin-password" value={password} onChange={(e) => setPassword(e.target.value)} feedback={false} toggleMask required autoComplete="current-password" />
              <Button type="submit" label="Sign in" loading={busy} />
              <Button
                type="button"
                link
                label="Forgot password?"
                onClick={() => {
                  setForgot(true);
                  setError(null);
                  setInfo(null);
                  setLocalResetLink(null);
                }}
              />
            </form>
          )}
        </TabPanel>
        <TabPanel header="Register">
          <form onSubmit={register} className="auth-form" aria-label="Register">
            <label htmlFor="register-name">Display name</label>
            <InputText id="register-name" value={displayName} onChange={(e) => setDisplayName(e.target.value)} autoComplete="nickname" />
            <label htmlFor="register-email">Email</label>
            <InputText id="register-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
            <NewPasswordField inputId="register-password" label="Password" value={password} onChange={setPassword} account={{ email, name: displayName }} />
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
