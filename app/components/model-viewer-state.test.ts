import { describe, expect, it } from "vitest";
import { loadingProgress } from "./model-viewer-state";

describe("the viewer's progress bar", () => {
  it("shows the percent of a download whose size is known, then that the model is being prepared", () => {
    expect(loadingProgress({ status: "loading", phase: "download", loaded: 0, total: 4_000_000 }, "model")).toEqual({ percent: 0, label: "Downloading model… 0%" });
    expect(loadingProgress({ status: "loading", phase: "download", loaded: 1_000_000, total: 4_000_000 }, "model")).toEqual({
      percent: 25,
      label: "Downloading model… 25%",
    });
    expect(loadingProgress({ status: "loading", phase: "prepare", loaded: 4_000_000, total: 4_000_000 }, "models")).toEqual({ percent: 100, label: "Preparing models…" });
  });

  it("counts megabytes on an indeterminate bar when the size is unknown", () => {
    expect(loadingProgress({ status: "loading", phase: "download", loaded: 0, total: null }, "model")).toEqual({ percent: 0, label: "Downloading model…" });
    expect(loadingProgress({ status: "loading", phase: "download", loaded: 3 * 1024 * 1024, total: null }, "models")).toEqual({
      percent: null,
      label: "Downloading models… 3.0 MB",
    });
  });
});
