import { createHmac } from "node:crypto";
import { db, type Item, type User } from "~/db.server";
import { env } from "~/env.server";
import { AppError } from "~/lib/errors";
import { getOwnedItem } from "~/domain/item-access.server";
import { signEditorToken, verifyEditorToken, type EditorTokenProblem } from "./editor-token";

/** The header the editor sends its token in (the Authorization header carries the identity token). */
export const EDITOR_TOKEN_HEADER = "X-Editor-Token";

/** A key of its own, derived from SESSION_SECRET: a session cookie's signature never verifies as a token. */
export function editorTokenSecret(): string {
  return createHmac("sha256", env().SESSION_SECRET).update("scanroom editor token v1").digest("base64url");
}

/** `iss`: this site's origin. */
export const editorTokenIssuer = () => new URL(env().APP_URL).origin;

/**
 * GET /v1/supersplat/jwt: a token for `user`, and for `itemId` when given (only an item the user
 * owns: any other id is the same 404 as an unknown one).
 */
export async function issueEditorToken({ user, itemId }: { user: User; itemId?: string }): Promise<{ jwt: string; expires_at: string }> {
  if (itemId) await getOwnedItem({ itemId, ownerId: user.id });
  const { token, claims } = signEditorToken({ secret: editorTokenSecret(), issuer: editorTokenIssuer(), userId: user.id, itemId });
  return { jwt: token, expires_at: new Date(claims.exp * 1000).toISOString() };
}

const PROBLEM_MESSAGES: Record<EditorTokenProblem, string> = {
  malformed: "The editor token is malformed.",
  bad_signature: "The editor token's signature is not valid.",
  expired: "The editor token has expired; open the editor again.",
  not_yet_valid: "The editor token is not valid yet.",
  wrong_audience: "The token is not an editor token.",
  wrong_issuer: "The editor token was issued by another site.",
};

/**
 * The editor's load and save calls: the caller and the item from the `X-Editor-Token` header. A
 * missing, malformed, tampered or expired token is a 401; a valid token for another item a 403; the
 * item must still be the token user's (404 otherwise, as for any item that is not theirs).
 */
export async function requireEditorAccess(request: Request, itemId: string): Promise<{ user: User; item: Item }> {
  const token = request.headers.get(EDITOR_TOKEN_HEADER)?.trim();
  if (!token) throw new AppError("unauthorized", `Send an editor token (GET /v1/supersplat/jwt) in the ${EDITOR_TOKEN_HEADER} header.`);
  const check = verifyEditorToken(token, { secret: editorTokenSecret(), issuer: editorTokenIssuer() });
  if (!check.ok) throw new AppError("unauthorized", PROBLEM_MESSAGES[check.problem]);
  if (check.claims.item_id !== itemId) throw new AppError("forbidden", "This editor token is for another item.");
  const user = await db().user.findFirst({ where: { id: check.claims.sub, disabledAt: null } });
  if (!user) throw new AppError("unauthorized", "The editor token's account is no longer active.");
  const item = await getOwnedItem({ itemId, ownerId: user.id });
  return { user, item };
}
