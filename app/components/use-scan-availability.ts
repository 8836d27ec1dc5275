import { useEffect, useState } from "react";

export interface ScanAvailabilityView {
  available: boolean;
  missing: string[];
  message: string | null;
}

/**
 * Whether this server takes scans now (GET /v1/scan/availability, issue 17 item 1). null while
 * loading or when it could not be read (the server still refuses a scan it cannot run).
 */
export function useScanAvailability(enabled: boolean): ScanAvailabilityView | null {
  const [availability, setAvailability] = useState<ScanAvailabilityView | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    fetch("/v1/scan/availability")
      .then((response) => (response.ok ? (response.json() as Promise<{ data: ScanAvailabilityView }>) : null))
      .then((body) => {
        if (!cancelled && body) setAvailability(body.data);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [enabled]);
  return availability;
}
