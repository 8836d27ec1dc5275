import { z } from "zod";

/**
 * The embed's postMessage API (docs/embed-api.md): a host page drives `/embed/{id}` with commands and hears
 * events back. Every message, both ways, is a plain object `{ channel: "scanroom", version: 1, type, ... }`.
 * An embed lives on any site, so commands are accepted from any origin — but only from the window that frames
 * the embed, and only when well formed. Events carry nothing private (the model is public or unlisted).
 */
export const EMBED_CHANNEL = "scanroom";
export const EMBED_API_VERSION = 1;

const coordinate = z.number().finite().min(-1e6).max(1e6);
const vec3 = z.tuple([coordinate, coordinate, coordinate]);
const requestId = z.string().max(100).optional();
const envelope = { channel: z.literal(EMBED_CHANNEL), version: z.literal(EMBED_API_VERSION) };

export const embedCommandSchema = z.discriminatedUnion("type", [
  /** Shows another model in the same frame (it must be public or unlisted). */
  z.object({ ...envelope, type: z.literal("load"), itemId: z.string().uuid("itemId must be a model id (UUID)") }).strict(),
  /** Moves the camera; stops autorotation. */
  z.object({ ...envelope, type: z.literal("setCamera"), position: vec3, target: vec3, requestId }).strict(),
  /** Asks for the current camera; answered by a `camera` event with the same requestId. */
  z.object({ ...envelope, type: z.literal("getCamera"), requestId }).strict(),
  /** Steps through the annotations that have a saved view, `stepMs` on each (default 4000). */
  z
    .object({
      ...envelope,
      type: z.literal("playTour"),
      from: z.number().int().min(0).max(10_000).optional(),
      stepMs: z.number().int().min(500).max(60_000).optional(),
    })
    .strict(),
  z.object({ ...envelope, type: z.literal("stopTour") }).strict(),
]).superRefine((m, ctx) => {
  if (m.type === "setCamera" && m.position.every((v, i) => v === m.target[i])) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["target"], message: "must differ from position" });
  }
});
export type EmbedCommand = z.infer<typeof embedCommandSchema>;
export type EmbedCommandType = EmbedCommand["type"];

export type Vec3 = [number, number, number];

/** Events the embed posts to its host. */
export type EmbedEvent =
  | { type: "ready"; itemId: string; format: string; loadMs: number }
  | { type: "error"; itemId: string | null; message: string; requestId?: string }
  | { type: "click"; itemId: string; x: number; y: number }
  | { type: "camera"; itemId: string; position: Vec3; target: Vec3; requestId?: string }
  | { type: "tourStep"; itemId: string; index: number; annotationId: string; title: string }
  | { type: "tourEnd"; itemId: string; completed: boolean };

export type EmbedMessage<T> = T & { channel: typeof EMBED_CHANNEL; version: typeof EMBED_API_VERSION };

export function embedEvent(event: EmbedEvent): EmbedMessage<EmbedEvent> {
  return { channel: EMBED_CHANNEL, version: EMBED_API_VERSION, ...event };
}

export type ParsedCommand = { ok: true; command: EmbedCommand } | { ok: false; message: string };

/**
 * Reads a message a host posted. null: not meant for us (another script's message — ignore it quietly);
 * `ok: false`: ours but malformed (answer with an `error` event naming the problem).
 */
export function parseEmbedCommand(data: unknown): ParsedCommand | null {
  if (!data || typeof data !== "object" || (data as { channel?: unknown }).channel !== EMBED_CHANNEL) return null;
  const result = embedCommandSchema.safeParse(data);
  if (result.success) return { ok: true, command: result.data };
  const type = typeof (data as { type?: unknown }).type === "string" ? (data as { type: string }).type.slice(0, 40) : "message";
  const problems = result.error.issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message));
  return { ok: false, message: `Ignored an invalid ${type} command: ${problems.join("; ")}` };
}
