import type { DeclaredModelType } from "~/formats/model-format";
import type { apiClient } from "./api";
import { waitFor } from "./wait-for";
import type { TestIdentity } from "./firebase-users";

/**
 * Uploads a model file through the API's model flow (create → upload link → PUT → size): the item is ready,
 * then given `visibility` when one is named (new items are private).
 */
export async function uploadReadyModel(
  api: ReturnType<typeof apiClient>,
  owner: Pick<TestIdentity, "idToken">,
  { bytes, modelType, name, visibility }: { bytes: Buffer; modelType: DeclaredModelType; name: string; visibility?: "public" | "unlisted" | "private" },
): Promise<string> {
  const created = await api("POST", "/item", { token: owner.idToken, body: { model_type: modelType, upload_type: "model", name } });
  if (created.status !== 200) throw new Error(`POST /item answered ${created.status}: ${JSON.stringify(created.json)}`);
  const itemId: string = created.json.data.item_id;
  const link = await api("GET", `/upload/item/${itemId}?uploadType=model`, { token: owner.idToken });
  const put = await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(bytes) });
  if (put.status !== 200) throw new Error(`the upload PUT answered ${put.status}`);
  const size = await api("POST", `/item/${itemId}/file/size`, { token: owner.idToken, body: { size: bytes.length } });
  if (size.status !== 200) throw new Error(`POST /file/size answered ${size.status}: ${JSON.stringify(size.json)}`);
  if (visibility) {
    const patched = await api("PATCH", `/item/${itemId}`, { token: owner.idToken, body: { visibility } });
    if (patched.status !== 200) throw new Error(`PATCH /item answered ${patched.status}: ${JSON.stringify(patched.json)}`);
  }
  return itemId;
}

/**
 * Waits for the thumbnail the server renders for a new model by itself (issue 18, within a minute of it
 * becoming ready; two allowed on a loaded machine): tests that compare what the API answers before and after
 * an action wait for it first, so its arrival is not taken for a change. Answers the item's thumbnail_url.
 */
/** Waits until the item's viewers get `format` (a splat's compact delivery copy is made after the upload); answers the item. */
export async function waitForDeliveredFormat(api: ReturnType<typeof apiClient>, owner: Pick<TestIdentity, "idToken">, itemId: string, format: string): Promise<Record<string, unknown>> {
  return waitFor(
    `item ${itemId} delivered as .${format}`,
    async () => {
      const item = await api("GET", `/item/${itemId}`, { token: owner.idToken });
      return item.json.data.delivered_format === format ? (item.json.data as Record<string, unknown>) : null;
    },
    150_000,
  );
}

export async function waitForAutomaticThumbnail(api: ReturnType<typeof apiClient>, owner: Pick<TestIdentity, "idToken">, itemId: string): Promise<string> {
  return waitFor(
    "the automatic thumbnail",
    async () => (await api("GET", `/item/${itemId}`, { token: owner.idToken })).json.data.thumbnail_url as string | null,
    120_000,
    500,
  );
}
