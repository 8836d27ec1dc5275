import type { ApiClient } from "../lib/api-client";
import { xhrPut } from "./upload-flows";

/** Sets an item's thumbnail from an image (≤ 2 MB jpeg/png/webp/gif): upload link → PUT → confirm. */
export async function uploadItemThumbnail(api: ApiClient, itemId: string, image: Blob): Promise<void> {
  const link = await api<{ path: string; url: string }>(`/item/${itemId}/thumbnail`, { method: "POST" });
  await xhrPut(link.url, image, () => undefined);
  await api(`/item/${itemId}/thumbnail`, { method: "PUT", body: { path: link.path } });
}
