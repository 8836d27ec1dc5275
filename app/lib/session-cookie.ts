import type { IncomingHttpHeaders } from "node:http";

/** The name of the site's session cookie (app/auth/session.server.ts); its presence means "signed in" to the shared page cache. */
export const SESSION_COOKIE_NAME = "__scanroom_session";

/** Whether a request acts for someone: it carries an Authorization header or the site's session cookie. */
export function isSignedInRequest(headers: IncomingHttpHeaders): boolean {
  if (headers.authorization) return true;
  const cookie = headers.cookie;
  return !!cookie && cookie.split(";").some((part) => part.trim().startsWith(`${SESSION_COOKIE_NAME}=`));
}
