import { methodNotAllowed } from "~/lib/method-not-allowed.server";
import { checkReadiness } from "~/pages/readiness.server";

// GET /readyz — readiness: 200 when the database, the object store and the job queue answer and the
// process is not draining for a shutdown; else 503 in the API's error shape, with each check's state.
export async function loader() {
  const { ready, draining, checks } = await checkReadiness();
  const headers = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };
  if (ready) return new Response(JSON.stringify({ status: "ready", checks }), { headers });
  const failing = Object.entries(checks).filter(([, state]) => state !== "ok").map(([name, state]) => `${name} ${state}`);
  const message = draining ? "This server is shutting down." : `Not ready: ${failing.join(", ")}.`;
  return new Response(JSON.stringify({ status: 503, error: "not_ready", message, checks }), { status: 503, headers });
}

export const action = methodNotAllowed(["GET"]);
