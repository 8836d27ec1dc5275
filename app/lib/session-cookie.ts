/** The name of the site's session cookie (app/auth/session.server.ts); its presence means "signed in" to the shared page cache. */
export const SESSION_COOKIE_NAME = "__scanroom_session";
