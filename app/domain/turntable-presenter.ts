import type { Item } from "~/db.server";
import { thumbnailSource } from "./rendered-source";

/** The files of a turntable (app/domain/item-turntables.server.ts), by the name the API serves them under. */
export const TURNTABLE_FILES = {
  mp4: { name: "turntable.mp4", type: "video/mp4" },
  gif: { name: "turntable.gif", type: "image/gif" },
  poster: { name: "poster.jpg", type: "image/jpeg" },
} as const;
export type TurntableFile = keyof typeof TURNTABLE_FILES;
export type TurntableState = "rendering" | "ready" | "failed";

/** What the API says of an item's turntable: its state and, once made, where its files are. */
export function presentTurntable(item: Pick<Item, "id" | "turntableKey" | "turntableState" | "turntableError" | "turntableSourceKey" | "fileKey" | "meshKey" | "modelType" | "fileFormat">, isOwner: boolean) {
  const source = thumbnailSource(item);
  const current = !!source && item.turntableSourceKey === source.key;
  const state = current ? ((item.turntableState as TurntableState | null) ?? null) : null;
  const ready = state === "ready" && !!item.turntableKey;
  const url = (file: TurntableFile) => (ready ? `/v1/item/${item.id}/turntable/${file}?v=${item.turntableKey!.split("/").at(-2)}` : null);
  return {
    state,
    error: isOwner && state === "failed" ? item.turntableError : null,
    mp4_url: url("mp4"),
    gif_url: url("gif"),
    poster_url: url("poster"),
  };
}
export type TurntableDto = ReturnType<typeof presentTurntable>;

