// A wrong HTTP method on any route is a 405 in the API's error shape with an Allow header (issue 17
// item 7), never a 400 or 500 from the framework. Resource routes export this for the side they do not
// serve: `export const action = methodNotAllowed(["GET"])` on a loader-only route (every method but GET
// and HEAD reaches a route's action), `export const loader = methodNotAllowed(["POST"])` on an action-only one.
export function methodNotAllowed(allowed: string[]) {
  return () =>
    new Response(
      JSON.stringify({ status: 405, error: "method_not_allowed", message: `This address accepts ${allowed.join(", ")} only.` }),
      { status: 405, headers: { Allow: allowed.join(", "), "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" } },
    );
}
