// What server.ts hands every loader and action besides the request (getLoadContext), worked out from the
// connection, which a Fetch Request does not carry (docs/decisions/039).
import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The origin to build this request's absolute links on (app/lib/link-origin.server.ts). */
    linkOrigin?: string;
    /** The client's address: the connection's, or the one a configured proxy forwarded. */
    clientAddress?: string;
  }
}
