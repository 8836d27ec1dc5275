export { EMPTY_OR_CORRUPTED } from "./download";

/** Turns anything thrown (Spark rejects with strings, workers with ErrorEvents) into an Error with a readable message. */
export function toError(error: unknown, fallback: string): Error {
  if (error instanceof Error) return error.message ? error : new Error(fallback);
  if (typeof error === "string" && error.trim()) return new Error(error);
  if (error && typeof error === "object" && "message" in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === "string" && message.trim()) return new Error(message);
  }
  return new Error(fallback);
}

/** Thrown by load() when a newer load() or dispose() made its result irrelevant. */
export class LoadCancelledError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "LoadCancelledError";
  }
}
