import { useMatches } from "@remix-run/react";
import { Button } from "primereact/button";
import { useEffect, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import type { PublicEnv } from "~/env.server";
import { useDevMode } from "~/lib/dev-mode";
import { devToolsAccess } from "~/lib/dev-tools-access";
import { readRequestTiming, type RequestTiming } from "~/lib/request-timing";
import { useToast, type ToastInput } from "./toast-provider";

/**
 * Developer tools (SPEC §6): shown while dev mode is on, to everyone outside production and only to
 * admins in production. They list this page's requests with their request ids and timings (read from
 * the browser's performance entries, which carry the server's Server-Timing header) and the raw data
 * each route of the current page loaded. Test components are never rendered in the production profile.
 */
export function DevTools({ env }: { env: PublicEnv }) {
  const { user } = useAuth();
  const [devMode] = useDevMode();
  const access = devToolsAccess({ profile: env.profile, isAdmin: user?.isAdmin === true, devMode });
  if (!access.showTools) return null;
  return <DevToolsPanel showTestComponents={access.showTestComponents} />;
}

const MAX_REQUESTS = 30;

function useRequestTimings(): RequestTiming[] {
  const [timings, setTimings] = useState<RequestTiming[]>([]);
  useEffect(() => {
    const read = (entries: PerformanceEntryList) =>
      entries.map((e) => readRequestTiming(e as unknown as Parameters<typeof readRequestTiming>[0], window.location.origin)).filter((t) => t !== null);
    setTimings(read([...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]).reverse().slice(0, MAX_REQUESTS));
    const observer = new PerformanceObserver((list) => {
      const fresh = read(list.getEntries());
      if (fresh.length) setTimings((current) => [...fresh.reverse(), ...current].slice(0, MAX_REQUESTS));
    });
    observer.observe({ type: "resource" });
    return () => observer.disconnect();
  }, []);
  return timings;
}

type Tab = "requests" | "data" | "test";

const SAMPLE_TOASTS: ToastInput["severity"][] = ["info", "success", "warn", "error", "secondary", "contrast"];

function DevToolsPanel({ showTestComponents }: { showTestComponents: boolean }) {
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<Tab>("requests");
  const timings = useRequestTimings();
  const matches = useMatches();
  const toast = useToast();
  const tabs: Array<{ id: Tab; label: string }> = [
    { id: "requests", label: "Requests" },
    { id: "data", label: "Page data" },
    ...(showTestComponents ? [{ id: "test" as const, label: "Test components" }] : []),
  ];

  return (
    <aside className={open ? "dev-tools is-open" : "dev-tools"} aria-label="Developer tools" data-testid="dev-tools">
      <Button
        type="button"
        size="small"
        icon="pi pi-wrench"
        label="Dev tools"
        aria-expanded={open}
        aria-controls="dev-tools-body"
        onClick={() => setOpen((o) => !o)}
      />
      {open ? (
        <div id="dev-tools-body" className="dev-tools-body">
          <div className="dev-tools-tabs" role="tablist" aria-label="Developer tools">
            {tabs.map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                id={`dev-tab-${t.id}`}
                aria-selected={tab === t.id}
                aria-controls={`dev-panel-${t.id}`}
                className={tab === t.id ? "is-active" : undefined}
                onClick={() => setTab(t.id)}
              >
                {t.label}
              </button>
            ))}
          </div>
          {tab === "requests" ? (
            <div role="tabpanel" id="dev-panel-requests" aria-labelledby="dev-tab-requests" className="dev-tools-panel">
              <table className="dev-tools-table" data-testid="dev-requests">
                <thead>
                  <tr>
                    <th scope="col">Request</th>
                    <th scope="col">Request id</th>
                    <th scope="col">Server</th>
                    <th scope="col">Total</th>
                  </tr>
                </thead>
                <tbody>
                  {timings.map((t) => (
                    <tr key={`${t.startTime}-${t.path}`}>
                      <td>
                        <span className="dev-tools-kind">{t.kind}</span> {t.path}
                      </td>
                      <td>
                        <code>{t.requestId ?? "—"}</code>
                      </td>
                      <td>{t.serverMs === null ? "—" : `${t.serverMs} ms`}</td>
                      <td>{t.totalMs} ms</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {tab === "data" ? (
            <div role="tabpanel" id="dev-panel-data" aria-labelledby="dev-tab-data" className="dev-tools-panel" data-testid="dev-page-data">
              {matches
                .filter((m) => m.data !== undefined)
                .map((m) => (
                  <details key={m.id} open={m.id === matches[matches.length - 1].id}>
                    <summary>
                      <code>{m.id}</code>
                    </summary>
                    <pre>{JSON.stringify(m.data, null, 2)}</pre>
                  </details>
                ))}
            </div>
          ) : null}
          {tab === "test" && showTestComponents ? (
            <div role="tabpanel" id="dev-panel-test" aria-labelledby="dev-tab-test" className="dev-tools-panel" data-testid="dev-test-components">
              <p>Sample toasts of every severity (not available in production).</p>
              <div className="dev-tools-buttons">
                {SAMPLE_TOASTS.map((severity) => (
                  <Button
                    key={severity}
                    type="button"
                    size="small"
                    outlined
                    label={severity}
                    onClick={() => toast({ severity, summary: `A ${severity} toast`, detail: "Shown from the developer tools." })}
                  />
                ))}
              </div>
            </div>
          ) : null}
        </div>
      ) : null}
    </aside>
  );
}
