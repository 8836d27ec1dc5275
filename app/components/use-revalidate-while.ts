import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/** Statuses of an item whose upload or scan is still under way. */
export const IN_PROGRESS_STATUSES: ReadonlySet<string> = new Set(["uploading", "queued", "processing"]);

/**
 * Reloads the page's loader data every `intervalMs` while `active` and the tab is visible: scans
 * report their stage and progress as they go, and the owner watches them move.
 */
export function useRevalidateWhile(active: boolean, intervalMs = 4000) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs, revalidator]);
}
