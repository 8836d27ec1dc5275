/** Checks on scene requests (loadScene, addPart) before anything is downloaded or decoded. */
import { normalizePartTransform } from "./part-transform";
import type { ScenePartRequest } from "./types";

export const EMPTY_SCENE = "This scene has no models yet";

/** A part request with a usable id, download and fileName, and its transform normalized (part-transform.ts). Throws a readable Error. */
export function validateScenePart(input: unknown): ScenePartRequest {
  if (!input || typeof input !== "object") throw new Error("A scene part must be an object");
  const { id, download, fileName, transform, name } = input as Record<string, unknown>;
  if (typeof id !== "string" || id.trim() === "") throw new Error("A scene part needs an id");
  const label = typeof name === "string" && name ? name : id;
  const isDownload = typeof download === "function" || (!!download && typeof download === "object" && "done" in download);
  if (!isDownload) throw new Error(`${label}: no download was given`);
  if (fileName !== undefined && typeof fileName !== "string") throw new Error(`${label}: the file name must be a string`);
  if (name !== undefined && typeof name !== "string") throw new Error(`${id}: the name must be a string`);
  let normalized;
  try {
    normalized = normalizePartTransform(transform);
  } catch (error) {
    throw new Error(`${label}: ${(error as Error).message}`);
  }
  return {
    id,
    download: download as ScenePartRequest["download"],
    transform: normalized,
    ...(fileName !== undefined ? { fileName } : {}),
    ...(name !== undefined ? { name } : {}),
  };
}

/** Whether a file name says glTF (the renderer is then made with antialiasing before the first part arrives). */
export function looksLikeMeshFile(fileName: string | undefined): boolean {
  return !!fileName && /\.(glb|gltf)$/i.test(fileName);
}

/** The rejection when no part of a scene could be shown. */
export function allPartsFailedError(errors: readonly Error[]): Error {
  if (errors.length === 1) return errors[0];
  const first = errors[0]?.message ?? "unknown error";
  return new Error(`None of the ${errors.length} models of this scene could be shown (${first})`);
}
