import { ProgressBar } from "primereact/progressbar";

const LABELS: Record<string, string> = {
  draft: "Draft",
  uploading: "Uploading",
  queued: "Queued",
  processing: "Processing",
  ready: "Ready",
  failed: "Failed",
};

/**
 * An item's status for its owner: a draft scene (never saved, decision 046), uploading, queued, processing with
 * stage and progress, ready, or failed with the reason (statusDetail holds the stage line or the failure reason).
 */
export function ItemStatus({ status, detail, progress }: { status: string; detail: string | null; progress: number | null }) {
  const percent = progress === null ? null : Math.round(Math.min(1, Math.max(0, progress)) * 100);
  return (
    <div className={`item-status item-status-${status}`} data-testid="item-status" data-status={status}>
      <span className="item-status-pill">{LABELS[status] ?? status}</span>
      {status === "processing" ? (
        <>
          <span className="item-status-detail">
            {/* The worker's stage line carries the percent itself ("Matching images — 50% · …"). */}
            {detail ?? `Working${percent !== null ? ` · ${percent}%` : ""}`}
          </span>
          <ProgressBar
            value={percent ?? 0}
            mode={percent === null ? "indeterminate" : "determinate"}
            showValue={false}
            style={{ height: 6 }}
            aria-label="Processing progress"
          />
        </>
      ) : status === "failed" ? (
        <span className="item-status-detail" role="note">
          {detail ?? "The scan could not be completed."}
        </span>
      ) : status === "queued" ? (
        <span className="item-status-detail">{detail ?? "Waiting for a scan worker"}</span>
      ) : status === "uploading" ? (
        <span className="item-status-detail">{detail ?? "Waiting for the file"}</span>
      ) : status === "draft" ? (
        <span className="item-status-detail">{detail ?? "Not saved yet: save it in the Builder to show it to others"}</span>
      ) : null}
    </div>
  );
}
