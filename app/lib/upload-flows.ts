import { putFile, type ApiClient } from "./api-client";
import { fileExtension, nameFromFileName } from "./upload-rules";
import type { DeclaredModelType } from "./model-format";

export interface UploadUrl {
  path: string;
  url: string;
}

/**
 * The model-file flow of SPEC §4: create item → upload link → PUT the file → report its size →
 * name it after the file. On any failure the created item is deleted and the error re-thrown.
 * Returns the new item's id (the caller goes to /item/{id}).
 */
export async function uploadModelFile({
  api,
  file,
  onProgress,
}: {
  api: ApiClient;
  file: File;
  onProgress?: (loaded: number, total: number) => void;
}): Promise<string> {
  const modelType = fileExtension(file.name) as DeclaredModelType;
  const { item_id: itemId } = await api<{ item_id: string }>("/item", {
    method: "POST",
    body: { model_type: modelType, upload_type: "model" },
  });
  try {
    const upload = await api<UploadUrl>(`/upload/item/${itemId}`, { query: { uploadType: "model" } });
    await putFile(upload.url, file, onProgress);
    await api(`/item/${itemId}/file/size`, { method: "POST", body: { size: file.size } });
    await api(`/item/${itemId}`, { method: "PATCH", body: { name: nameFromFileName(file.name) } });
    return itemId;
  } catch (error) {
    await api(`/item/${itemId}`, { method: "DELETE" }).catch(() => undefined);
    throw error;
  }
}
