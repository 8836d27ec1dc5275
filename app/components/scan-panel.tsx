import { Button } from "primereact/button";
import { confirmDialog } from "primereact/confirmdialog";
import { useCallback, useEffect, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { useToast } from "~/components/toast-provider";
import type { ScanStatusDto } from "~/domain/scan-control.server";
import { TRAINING_STOP_TEXT } from "~/domain/training-stop";
import { formatCount, formatDuration } from "~/lib/format";

type ScanFigures = NonNullable<ScanStatusDto["metrics"]>;

/** How the splat was made: "CPU · 4,210 iterations in 6 min, stopped when it no longer improved" (or by a GPU trainer), or why not. */
function trainingLine(m: ScanFigures): string {
  if (m.preview) return "not trained";
  const where = m.trainer === "scanroom-cpu" ? "CPU" : (m.trainer ?? "trainer");
  const iterations = m.trained_iterations !== null ? `${formatCount(m.trained_iterations)} iterations` : null;
  const minutes = m.trained_minutes !== null ? `${Math.max(1, Math.round(m.trained_minutes))} min` : null;
  const run = [iterations, minutes].filter(Boolean).join(" in ");
  const why = m.training_stopped ? TRAINING_STOP_TEXT[m.training_stopped] : null;
  return [where, [run, why].filter(Boolean).join(", ")].filter(Boolean).join(" · ");
}

/** "27.41 dB PSNR · SSIM 0.871 · covers 96% of the picture", or why there is no figure. */
function qualityLine(psnr: number | null, ssim: number | null, coverage: number | null, missing: string): string {
  if (psnr === null || ssim === null) return missing;
  const covers = coverage !== null ? ` · covers ${Math.round(coverage * 100)}% of the picture` : "";
  return `${psnr.toFixed(2)} dB PSNR · SSIM ${ssim.toFixed(3)}${covers}`;
}

/** "182,400 triangles, 4096×4096 texture (light level 50,000)" or why there is none. */
function meshLine(m: ScanFigures): string {
  if (m.mesh_triangles === null) return m.mesh_skipped ? `none: ${m.mesh_skipped}` : "none";
  const texture = m.texture_size ? `, ${m.texture_size[0]}×${m.texture_size[1]} texture` : "";
  const lite = m.mesh_lite_triangles !== null ? ` (light level ${formatCount(m.mesh_lite_triangles)})` : "";
  return `${formatCount(m.mesh_triangles)} triangles${texture}${lite}`;
}

/**
 * The owner's view of a scan (issue 5): where it is, how long is left, cancel and retry, and once
 * it is done the quality figures the pipeline measured. Reloads whenever the item changes (the page
 * polls the item while a scan runs); `onChange` tells the page to reload after cancel or retry.
 * It asks only once the sign-in state is known: a page opened directly or reloaded has no ID token until
 * Firebase reports it, and asking before gets a 401 (issue 17, item 15).
 */
export function ScanPanel({ itemId, version, onChange }: { itemId: string; version: string; onChange: () => void }) {
  const { api, ready } = useAuth();
  const toast = useToast();
  const [scan, setScan] = useState<ScanStatusDto | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!ready) return;
    let live = true;
    api<ScanStatusDto>(`/scan/${itemId}`)
      .then((status) => live && setScan(status))
      .catch(() => live && setScan(null));
    return () => {
      live = false;
    };
  }, [api, ready, itemId, version]);

  const act = useCallback(
    async (action: "cancel" | "retry", done: string) => {
      setBusy(true);
      try {
        await api(`/scan/${itemId}/${action}`, { method: "POST" });
        toast({ severity: "success", summary: "Scan", detail: done });
        onChange();
      } catch (error) {
        toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
      } finally {
        setBusy(false);
      }
    },
    [api, itemId, onChange, toast],
  );

  if (!scan) return null;
  const m = scan.metrics;
  return (
    <section className="item-panel scan-panel" aria-labelledby="scan-heading" data-testid="scan-panel">
      <h2 id="scan-heading">Scan</h2>
      <p className="item-panel-note" data-testid="scan-state">
        {scan.status === "running" && scan.stage_label
          ? `${scan.stage_label} — ${Math.floor(scan.progress * 100)}%${scan.eta_seconds !== null ? ` · about ${formatDuration(scan.eta_seconds)} left` : ""}`
          : scan.status === "queued"
            ? "Waiting for a scan worker."
            : scan.status === "succeeded"
              ? `Finished${m?.total_seconds ? ` in ${formatDuration(m.total_seconds)}` : ""}.`
              : scan.status === "cancelled"
                ? scan.finished_at
                  ? "Cancelled. Your scan credit was given back."
                  : "Cancelling…"
                : `Failed: ${scan.error ?? "the scan could not be finished."}${scan.advice ? ` ${scan.advice}` : ""} Your scan credit was given back.`}
      </p>
      <div className="item-owner-actions">
        {scan.can_cancel ? (
          <Button
            size="small"
            outlined
            severity="danger"
            icon="pi pi-stop-circle"
            label="Cancel scan"
            loading={busy}
            onClick={() =>
              confirmDialog({
                header: "Cancel scan",
                message: "Stop this scan? Its credit is given back, and you can run it again later.",
                acceptLabel: "Stop the scan",
                rejectLabel: "Keep scanning",
                acceptClassName: "p-button-danger",
                accept: () => void act("cancel", "The scan is being stopped."),
              })
            }
          />
        ) : null}
        {scan.can_retry ? (
          <Button size="small" icon="pi pi-refresh" label="Retry scan (1 credit)" loading={busy} onClick={() => void act("retry", "The scan was queued again.")} />
        ) : null}
      </div>
      {m && scan.status === "succeeded" ? (
        <dl className="scan-metrics" data-testid="scan-metrics">
          <dt>Cameras placed</dt>
          <dd>
            {m.registered_images ?? "—"} of {m.total_images ?? "—"}
            {m.registered_ratio !== null ? ` (${Math.round(m.registered_ratio * 100)}%)` : ""}
          </dd>
          <dt>Reprojection error</dt>
          <dd>{m.mean_reprojection_error !== null ? `${m.mean_reprojection_error.toFixed(2)} px` : "—"}</dd>
          <dt>3D points</dt>
          <dd>{m.points !== null ? formatCount(m.points) : "—"}</dd>
          <dt>Dense points</dt>
          <dd>{m.dense_points !== null ? formatCount(m.dense_points) : (m.dense_skipped ?? "—")}</dd>
          <dt>Splats</dt>
          <dd>{m.splats !== null ? formatCount(m.splats) : "—"}</dd>
          <dt>Training</dt>
          <dd>{trainingLine(m)}</dd>
          <dt>Held-out frames</dt>
          <dd>{m.held_out_frames ?? "—"}</dd>
          <dt>Splat quality</dt>
          <dd data-testid="scan-splat-quality">{qualityLine(m.psnr, m.ssim, m.splat_coverage, "not measured: no held-out photo was placed")}</dd>
          <dt>Textured mesh</dt>
          <dd>{meshLine(m)}</dd>
          <dt>Mesh quality</dt>
          <dd data-testid="scan-mesh-quality">{qualityLine(m.mesh_psnr, m.mesh_ssim, m.mesh_coverage, m.mesh_triangles === null ? "no mesh" : "not measured")}</dd>
          {Object.keys(m.stage_seconds).length > 0 ? (
            <>
              <dt>Time per stage</dt>
              <dd>
                {Object.entries(m.stage_seconds)
                  .map(([stage, seconds]) => `${stage} ${formatDuration(seconds)}`)
                  .join(" · ")}
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {m && scan.status === "succeeded" && m.psnr !== null ? (
        <p className="item-panel-note" data-testid="scan-quality-meaning">
          Quality: the published model drawn from the camera of each of {m.evaluated_views ?? 0} photo{m.evaluated_views === 1 ? "" : "s"} kept out of
          the scan, on the viewer&apos;s background, compared with the photo over the whole picture (PSNR: higher is closer, 30 dB looks alike; SSIM: 1 is identical).
        </p>
      ) : null}
      {m?.preview && scan.status === "succeeded" ? (
        <p className="item-panel-note">
          {m.training_failed
            ? `Not trained: ${m.training_failed} The splat shown is built directly from the scan's ${m.dense_points !== null ? "dense" : "sparse"} points.`
            : `Not trained: the splat shown is built directly from the scan's ${m.dense_points !== null ? "dense" : "sparse"} points.`}
        </p>
      ) : null}
    </section>
  );
}
