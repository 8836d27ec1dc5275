// What server.ts hands every loader and action besides the request (getLoadContext), worked out from the
// connection, which a Fetch Request does not carry (docs/decisions/039).
import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The origin to build this request's absolute links on (app/lib/link-origin.server.ts). */
    linkOrigin?: string;
    /** The client's address: the connection's, or the one a configured proxy forwarded. */
    clientAddress?: string;
    /**
     * True on a request the web process makes of itself (app/lib/self-requests.server.ts): its warm-up, or a kept
     * page rendered again for no one (decision 069, 072). Nobody sees it: it counts no view.
     */
    forNoOne?: boolean;
  }
}
