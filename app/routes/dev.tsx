import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button } from "primereact/button";
import { useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { requirePageUser } from "~/auth/require-user.server";
import { CopyField } from "~/components/copy-field";
import { env } from "~/env.server";
import { useDevMode } from "~/lib/dev-mode";

export const meta: MetaFunction = () => [{ title: "Developer — Scanroom" }, { name: "robots", content: "noindex" }];

// SPEC §6: in production the developer tools are for admins only; others get the same 404 as an unknown page.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePageUser(request);
  const e = env();
  if (e.isProduction && !user.isAdmin) throw new Response("Not found", { status: 404 });
  return json({
    apiBaseUrl: new URL("/v1", e.APP_URL).toString(),
    environment: [
      { label: "Profile", value: e.SCANROOM_PROFILE },
      { label: "NODE_ENV", value: e.NODE_ENV },
      { label: "Node.js", value: process.version },
      { label: "App URL", value: e.APP_URL },
      { label: "Storage driver", value: e.STORAGE_DRIVER },
      { label: "Firebase project", value: e.FIREBASE_PROJECT_ID },
      { label: "Auth emulator", value: e.FIREBASE_AUTH_EMULATOR_HOST ?? "not used" },
      { label: "Error reporting", value: e.SENTRY_DSN ? "Sentry enabled" : "disabled (no DSN)" },
      { label: "You are admin", value: user.isAdmin ? "yes" : "no" },
    ],
  });
}

export default function Dev() {
  const { apiBaseUrl, environment } = useLoaderData<typeof loader>();
  const { getToken } = useAuth();
  const [devMode, toggleDevMode] = useDevMode();
  const [token, setToken] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const showToken = async () => {
    setError(null);
    const value = await getToken().catch(() => null);
    if (value) setToken(value);
    else setError("No token: sign in again.");
  };

  return (
    <section className="page dev">
      <h1>Developer</h1>
      <p className="explore-lead">
        Call the Scanroom API with your own identity. Every call goes to the base URL below with <code>Authorization: Bearer &lt;ID token&gt;</code>;
        tokens expire after an hour.
      </p>
      <section className="settings-panel" aria-labelledby="api-heading">
        <h2 id="api-heading">API</h2>
        <CopyField label="API base URL" value={apiBaseUrl} testId="api-base-url" />
        {token ? (
          <>
            <CopyField label="Your ID token" value={token} multiline testId="id-token" />
            <CopyField label="Example request" value={`curl -H "Authorization: Bearer ${token}" ${apiBaseUrl}/user`} multiline />
          </>
        ) : (
          <Button label="Show my ID token" icon="pi pi-key" onClick={showToken} />
        )}
        {error ? <p role="alert">{error}</p> : null}
      </section>
      <section className="settings-panel" aria-labelledby="env-heading">
        <h2 id="env-heading">Environment</h2>
        <dl className="settings-facts" data-testid="environment-info">
          {environment.map((row) => (
            <div key={row.label}>
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
          <div>
            <dt>Dev mode (this browser)</dt>
            <dd>
              {devMode ? "on" : "off"}{" "}
              <Button size="small" text label={devMode ? "Turn off" : "Turn on"} onClick={toggleDevMode} />
            </dd>
          </div>
        </dl>
      </section>
    </section>
  );
}
