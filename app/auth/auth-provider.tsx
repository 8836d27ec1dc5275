import { useRevalidator } from "@remix-run/react";
import type { User as FirebaseUser } from "firebase/auth";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { PublicEnv } from "~/env.server";
import { createApiClient, type ApiClient } from "~/lib/api-client";
import { reportClientError } from "~/lib/sentry.client";

export interface SiteUser {
  id: string;
  uid: string;
  email: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  isAdmin: boolean;
}

interface AuthState {
  /** False until Firebase reports the first sign-in state (SPEC §2 boot spinner). */
  ready: boolean;
  firebaseUser: FirebaseUser | null;
  user: SiteUser | null;
  /** Set when Firebase is signed in but the email is not verified yet. */
  needsVerification: boolean;
  getToken: () => Promise<string | null>;
  signOut: () => Promise<void>;
  /** Opens the server session for the current Firebase user (after sign-in or verification). */
  syncSession: (force?: boolean) => Promise<"ok" | "unverified" | "signed_out" | "error">;
  api: ApiClient;
  firebaseConfig: PublicEnv["firebase"];
}

const AuthContext = createContext<AuthState | null>(null);

async function postSession(idToken: string) {
  const response = await fetch("/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ idToken }),
  });
  const payload = await response.json().catch(() => null);
  if (!response.ok) return "error" as const;
  return payload?.data?.needs_verification ? ("unverified" as const) : ("ok" as const);
}

export function AuthProvider({
  children,
  serverUser,
  firebaseConfig,
  restoreSession = true,
}: {
  children: ReactNode;
  serverUser: SiteUser | null;
  firebaseConfig: PublicEnv["firebase"];
  /** false: Firebase is never loaded; ready at once with no signed-in user (a route's handle.session). */
  restoreSession?: boolean;
}) {
  const [ready, setReady] = useState(false);
  const [firebaseUser, setFirebaseUser] = useState<FirebaseUser | null>(null);
  const [needsVerification, setNeedsVerification] = useState(false);
  const revalidator = useRevalidator();
  const serverUserRef = useRef(serverUser);
  serverUserRef.current = serverUser;
  const firebaseUserRef = useRef<FirebaseUser | null>(null);
  // Settles with the first sign-in state: a token asked for before it (files picked the moment a page opens) waits
  // for the session to be restored, rather than going out without one and getting "Sign in to continue.".
  const restoredRef = useRef<{ promise: Promise<void>; settle: () => void } | null>(null);
  if (!restoredRef.current) {
    let settle = () => {};
    const promise = new Promise<void>((resolve) => (settle = resolve));
    restoredRef.current = { promise, settle };
  }

  const syncSession = useCallback(
    async (force = false) => {
      const fbUser = firebaseUserRef.current;
      if (!fbUser) return "signed_out" as const;
      if (!force && serverUserRef.current?.uid === fbUser.uid) {
        setNeedsVerification(false);
        return "ok" as const;
      }
      const result = await postSession(await fbUser.getIdToken(force));
      setNeedsVerification(result === "unverified");
      if (result === "ok") revalidator.revalidate();
      return result;
    },
    [revalidator],
  );

  useEffect(() => {
    if (!restoreSession) {
      restoredRef.current!.settle();
      setReady(true);
      return;
    }
    let unsubscribe = () => {};
    let cancelled = false;
    // The page waits behind the boot spinner only until the first answer: a session restore that fails (Firebase's
    // chunk not loading, the session request failing) shows the page signed out instead of a spinner for ever.
    const settle = () => {
      restoredRef.current!.settle();
      if (!cancelled) setReady(true);
    };
    (async () => {
      const [{ firebaseAuth }, { onIdTokenChanged }] = await Promise.all([
        import("./firebase.client"),
        import("firebase/auth"),
      ]);
      if (cancelled) return;
      const auth = firebaseAuth(firebaseConfig);
      let first = true;
      unsubscribe = onIdTokenChanged(auth, async (fbUser) => {
        const changed = firebaseUserRef.current?.uid !== fbUser?.uid;
        firebaseUserRef.current = fbUser;
        setFirebaseUser(fbUser);
        try {
          if (changed || first) {
            if (fbUser) await syncSession();
            else if (serverUserRef.current) {
              await fetch("/session", { method: "DELETE" });
              revalidator.revalidate();
            }
          }
        } catch (error) {
          reportClientError(error);
        } finally {
          if (first) {
            first = false;
            settle();
          }
        }
      });
    })().catch((error) => {
      reportClientError(error);
      settle();
    });
    return () => {
      cancelled = true;
      unsubscribe();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const getToken = useCallback(async () => {
    await restoredRef.current!.promise;
    return firebaseUserRef.current?.getIdToken() ?? null;
  }, []);

  const signOut = useCallback(async () => {
    const [{ firebaseAuth }, { signOut: fbSignOut }] = await Promise.all([import("./firebase.client"), import("firebase/auth")]);
    await fetch("/session", { method: "DELETE" });
    await fbSignOut(firebaseAuth(firebaseConfig));
  }, [firebaseConfig]);

  const api = useMemo(() => createApiClient({ getToken }), [getToken]);

  const value = useMemo<AuthState>(
    () => ({ ready, firebaseUser, user: serverUser, needsVerification, getToken, signOut, syncSession, api, firebaseConfig }),
    [ready, firebaseUser, serverUser, needsVerification, getToken, signOut, syncSession, api, firebaseConfig],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used inside <AuthProvider>");
  return value;
}
