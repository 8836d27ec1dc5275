/**
 * Scenes for <ModelViewer> (the Builder's scenes, issue 6): the source shape, when a change of it
 * needs a reload, and the notice for parts that could not be shown. No three.js here.
 */
import type { PartTransform } from "../viewer/types";

export interface ScenePartSource {
  id: string;
  url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | null;
  /** XOR key the file was obfuscated with (SPEC §7). */
  xorKey?: Uint8Array | null;
  /** Helps detect formats without magic bytes (.splat, .spz, .sog). */
  fileName?: string;
  transform: PartTransform;
  /** Shown in the notice when the part cannot be shown. */
  name?: string;
}

export interface SceneSource {
  parts: ScenePartSource[];
}

export function isSceneSource(source: object): source is SceneSource {
  return Array.isArray((source as Partial<SceneSource>).parts);
}

function xorKeyId(key: Uint8Array | null | undefined): string {
  return key && key.length > 0 ? Array.from(key).join(",") : "";
}

/**
 * What a scene's download depends on: its parts' ids, files, tokens and keys, in order. Transforms
 * and names are not in it: moving a part needs no new download (transformsKey).
 */
export function sceneFilesKey(scene: SceneSource): string {
  return JSON.stringify(scene.parts.map((part) => [part.id, part.url, part.token ?? null, xorKeyId(part.xorKey), part.fileName ?? null]));
}

/** The parts' transforms, by id (a change moves the parts on show). */
export function transformsKey(scene: SceneSource): string {
  return JSON.stringify(scene.parts.map((part) => [part.id, part.transform]));
}

export interface PartFailure {
  id: string;
  name?: string;
  message: string;
}

/** "1 of 3 models could not be shown: Chair: <reason>" (several failures joined by "; "), or null. */
export function partFailureNotice(failures: readonly PartFailure[], partCount: number): string | null {
  if (failures.length === 0) return null;
  const details = failures.map((failure) => `${failure.name || failure.id}: ${failure.message}`).join("; ");
  const noun = partCount === 1 ? "model" : "models";
  return `${failures.length} of ${partCount} ${noun} could not be shown: ${details}`;
}
