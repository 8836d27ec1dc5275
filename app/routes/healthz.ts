import { methodNotAllowed } from "~/lib/method-not-allowed.server";
// GET /healthz — liveness: 200 while this process serves requests; it checks nothing else, so a
// process manager restarts the process only when the process itself is stuck (docs/deploy.md).
export function loader() {
  return new Response(JSON.stringify({ status: "ok" }), {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export const action = methodNotAllowed(["GET"]);
