import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useEffect } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteError,
} from "@remix-run/react";
import { PrimeReactProvider } from "primereact/api";
import primeTheme from "primereact/resources/themes/lara-light-indigo/theme.css?url";
import primeCore from "primereact/resources/primereact.min.css?url";
import primeIcons from "primeicons/primeicons.css?url";
import siteCss from "~/styles/site.css?url";
import { AuthProvider, type SiteUser } from "~/auth/auth-provider";
import { getPageUser } from "~/auth/require-user.server";
import { AnnouncementBar } from "~/components/announcement-bar";
import { BootSpinner } from "~/components/boot-spinner";
import { DevTools } from "~/components/dev-tools";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { ToastProvider } from "~/components/toast-provider";
import { UploadDialogProvider } from "~/components/upload-dialog-provider";
import { avatarUrl } from "~/domain/user-presenter";
import { publicEnv } from "~/env.server";
import { useNonce } from "~/lib/nonce-context";
import { reportBoundaryError } from "~/lib/sentry.client";
import { readHandles } from "~/lib/route-handle";

export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getPageUser(request);
  const siteUser: SiteUser | null = user
    ? {
        id: user.id,
        uid: user.firebaseUid,
        email: user.email,
        displayName: user.displayName,
        avatarUrl: avatarUrl(user),
        isAdmin: user.isAdmin,
      }
    : null;
  return json({ env: publicEnv(context.linkOrigin), user: siteUser });
}

function SiteStyles({ withTheme }: { withTheme: boolean }) {
  return (
    <>
      {withTheme ? <link rel="stylesheet" href={primeTheme} /> : null}
      {withTheme ? <link rel="stylesheet" href={primeCore} /> : null}
      <link rel="stylesheet" href={primeIcons} />
      <link rel="stylesheet" href={siteCss} />
    </>
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const matches = useMatches();
  const { surface, primeTheme: withTheme } = readHandles(matches);
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {surface === "site" ? <SiteStyles withTheme={withTheme} /> : null}
        <Links />
      </head>
      <body>
        {children}
        {/* Not on embeds: its sessionStorage access throws in cross-site iframes with third-party storage blocked. */}
        {matches.some((m) => m.pathname.startsWith("/embed/")) ? null : <ScrollRestoration nonce={nonce} />}
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function App() {
  const { env, user } = useLoaderData<typeof loader>();
  const matches = useMatches();
  const { layout, surface, session } = readHandles(matches);
  const nonce = useNonce();
  if (surface === "shopify") return <Outlet />;
  return (
    <PrimeReactProvider value={{ ripple: false }}>
      <script
        nonce={nonce}
        // Public configuration only (env.server publicEnv): no secrets.
        dangerouslySetInnerHTML={{ __html: `window.__SCANROOM_ENV__=${JSON.stringify(env).replace(/</g, "\\u003c")}` }}
      />
      <ToastProvider>
        <AuthProvider serverUser={user} firebaseConfig={env.firebase} restoreSession={session}>
          <UploadDialogProvider>
            <BootSpinner />
            {layout ? <AnnouncementBar /> : null}
            {layout ? <SiteHeader env={env} /> : null}
            <main id="main" className={layout ? "site-main" : "bare-main"}>
              <Outlet />
            </main>
            {layout ? <SiteFooter env={env} /> : null}
            {layout ? <DevTools env={env} /> : null}
          </UploadDialogProvider>
        </AuthProvider>
      </ToastProvider>
    </PrimeReactProvider>
  );
}

export default App;

export function ErrorBoundary() {
  const error = useRouteError();
  // An effect: sentry.client is a client-only module (empty on the server, which reports its own errors).
  useEffect(() => reportBoundaryError(error), [error]);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    status === 404 ? "We couldn't find that page or model." : "Something went wrong. Please try again in a moment.";
  return (
    <main className="error-page">
      <h1>{status === 404 ? "Not found" : "Error"}</h1>
      <p>{message}</p>
      <a href="/">Back to Explore</a>
    </main>
  );
}
