/** <ModelViewer>'s state while it loads, shows or fails, and what its progress bar says (model-viewer.tsx). */
export type ViewState =
  // `preview`: the first splats are on screen while the rest downloads (the bar moves aside).
  | { status: "loading"; phase: "download" | "prepare"; loaded: number; total: number | null; preview?: boolean }
  | { status: "ready" }
  | { status: "error"; message: string };

export const DEFAULT_BACKGROUND = "#1e1f22";
export const INITIAL_STATE: ViewState = { status: "loading", phase: "download", loaded: 0, total: null };

export function isCancellation(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === "AbortError" || name === "LoadCancelledError";
}

export function reasonOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === "string" && error) return error;
  return "Unknown error";
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The progress bar of a loading viewer: its percent (null: indeterminate, a download without a Content-Length
 * once bytes arrive) and its label ("Downloading model… 42%", "Preparing models…").
 */
export function loadingProgress(state: Extract<ViewState, { status: "loading" }>, what: "model" | "models"): { percent: number | null; label: string } {
  let percent: number | null = null;
  if (state.phase === "prepare") percent = 100;
  else if (state.total) percent = Math.min(100, Math.round((state.loaded / state.total) * 100));
  else if (state.loaded === 0) percent = 0;
  let label = `Downloading ${what}…`;
  if (state.phase === "prepare") label = `Preparing ${what}…`;
  else if (state.total) label = `Downloading ${what}… ${percent}%`;
  else if (state.loaded > 0) label = `Downloading ${what}… ${formatMegabytes(state.loaded)}`;
  return { percent, label };
}

