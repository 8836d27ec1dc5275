import { expect } from "vitest";
import type { TestIdentity } from "./firebase-users";

/**
 * Signs `identity` in on the site as the /auth page does (POST /session with its ID token) and returns the
 * session cookie as a `Cookie` header value, for page requests to the app served at `baseUrl`.
 */
export async function sessionCookie(baseUrl: string, identity: Pick<TestIdentity, "idToken">): Promise<string> {
  const response = await fetch(`${baseUrl}/session`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ idToken: identity.idToken }),
  });
  expect(response.status).toBe(200);
  return response.headers.get("set-cookie")!.split(";")[0];
}
