import { createCookieSessionStorage } from "@remix-run/node";
import { env } from "~/env.server";
import { SESSION_COOKIE_NAME } from "~/lib/session-cookie";

/**
 * The site's server-side session: set after the browser proves a Firebase sign-in (routes/session.ts),
 * read by page loaders. The /v1 API does not use it; API calls carry a bearer ID token (SPEC §7).
 */
type SessionData = { userId: string };
let storage: ReturnType<typeof createCookieSessionStorage<SessionData>> | undefined;

export function sessionStorage() {
  if (!storage) {
    const e = env();
    storage = createCookieSessionStorage<SessionData>({
      cookie: {
        name: SESSION_COOKIE_NAME,
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: e.APP_URL.startsWith("https://"),
        secrets: [e.SESSION_SECRET],
        maxAge: 60 * 60 * 24 * 14,
      },
    });
  }
  return storage;
}

export async function getSessionUserId(request: Request): Promise<string | null> {
  const session = await sessionStorage().getSession(request.headers.get("Cookie"));
  const userId = session.get("userId");
  return typeof userId === "string" ? userId : null;
}
