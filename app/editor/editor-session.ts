import type { ItemVersionDto } from "~/domain/item-version-presenter";
import type { ApiClient } from "~/lib/api-client";
import { ApiError } from "~/lib/api-client";

export type EditorVersion = ItemVersionDto;

/** A token is used for at most this long (it lives 15 minutes). */
const TOKEN_REUSE_MS = 10 * 60 * 1000;

/**
 * The clean-up editor's calls to the server (browser). Every call carries the short-lived editor
 * token (GET /v1/supersplat/jwt, docs/editor-token.md) in X-Editor-Token; a token is fetched again
 * when it is close to expiring.
 */
export function createEditorSession({ api, itemId }: { api: ApiClient; itemId: string }) {
  let token: { jwt: string; at: number } | null = null;

  async function editorToken(): Promise<string> {
    if (!token || Date.now() - token.at > TOKEN_REUSE_MS) {
      const { jwt } = await api<{ jwt: string }>("/supersplat/jwt", { query: { item_id: itemId } });
      token = { jwt, at: Date.now() };
    }
    return token.jwt;
  }

  async function call(path: string, init: { method?: "GET" | "POST" } = {}): Promise<Response> {
    const response = await fetch(`/v1/item/${itemId}${path}`, { method: init.method ?? "GET", headers: { "X-Editor-Token": await editorToken() } });
    if (response.ok) return response;
    const payload = (await response.json().catch(() => null)) as { error?: string; message?: string } | null;
    throw new ApiError(response.status, payload?.error ?? "http_error", payload?.message ?? `Request failed with status ${response.status}`);
  }

  const json = async <T>(path: string, method: "GET" | "POST" = "GET") => ((await (await call(path, { method })).json()) as { data: T }).data;

  return {
    /** The current version's splats as a standard 3DGS .ply. */
    loadSplats: async () => (await call("/splats")).arrayBuffer(),
    listVersions: async () => (await json<{ versions: EditorVersion[] }>("/versions")).versions,
    /** Uploads `ply` as a new version and makes it the current one. */
    async saveVersion(ply: ArrayBuffer): Promise<EditorVersion> {
      const started = await json<{ version_id: string; url: string }>("/versions", "POST");
      const put = await fetch(started.url, { method: "PUT", body: ply });
      if (!put.ok) throw new ApiError(put.status, "upload_failed", `The upload failed (HTTP ${put.status}).`);
      return (await json<{ version: EditorVersion }>(`/versions/${started.version_id}/commit`, "POST")).version;
    },
    restoreVersion: async (versionId: string) => (await json<{ version: EditorVersion }>(`/versions/${versionId}/restore`, "POST")).version,
  };
}

export type EditorSession = ReturnType<typeof createEditorSession>;
