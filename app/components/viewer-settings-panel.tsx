import { Button } from "primereact/button";
import { Checkbox } from "primereact/checkbox";
import { useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { AUTOROTATE_SPEED, FIELD_OF_VIEW, LENGTH_UNITS, type LengthUnit, type ViewerSettings } from "~/domain/viewer-settings";
import { VIEWER_FOV } from "~/viewer/camera-fit";
import { uploadItemThumbnail } from "~/components/item-thumbnail";
import type { CameraView } from "~/viewer/camera-view";
import { useToast } from "./toast-provider";

const UNIT_NAMES: Record<LengthUnit, string> = { m: "Metres", cm: "Centimetres", mm: "Millimetres", in: "Inches", ft: "Feet" };
const DEFAULT_PICKER_COLOUR = "#1e1f22";
const SPEEDS = [
  { value: 0.5, label: "Slow" },
  { value: 1, label: "Normal" },
  { value: 2, label: "Fast" },
  { value: AUTOROTATE_SPEED.max, label: "Very fast" },
] as const;

/**
 * The Viewer tab of the Share / Embed dialog: how the model opens everywhere (page, viewer, embeds) —
 * PATCH /v1/item/{id}/settings. The opening view is taken from the viewer on the page, and so is the
 * thumbnail when the owner asks for "this view" (any model, as Builder scenes).
 */
export function ViewerSettingsPanel({
  itemId,
  settings,
  getCurrentView,
  captureView,
  onSaved,
}: {
  itemId: string;
  settings: ViewerSettings;
  getCurrentView: () => CameraView | null;
  /** A picture of what the viewer shows now, or null while it shows nothing. */
  captureView: () => Promise<Blob> | null;
  onSaved: () => void;
}) {
  const { api } = useAuth();
  const toast = useToast();
  const [background, setBackground] = useState<string | null>(settings.background);
  const [autorotate, setAutorotate] = useState(settings.autorotate);
  const [speed, setSpeed] = useState(settings.autorotate_speed);
  const [fov, setFov] = useState<number | null>(settings.fov);
  const [units, setUnits] = useState<LengthUnit>(settings.units);
  const [camera, setCamera] = useState<CameraView | null>(settings.camera);
  const [saving, setSaving] = useState(false);
  const [capturing, setCapturing] = useState(false);

  const save = async () => {
    setSaving(true);
    try {
      await api(`/item/${itemId}/settings`, { method: "PATCH", body: { background, autorotate, autorotate_speed: speed, fov, units, camera } });
      toast({ severity: "success", summary: "Saved", detail: "The model opens this way from now on." });
      onSaved();
    } catch (error) {
      toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
    } finally {
      setSaving(false);
    }
  };

  const useCurrentView = () => {
    const view = getCurrentView();
    // With its field of view and the frame's shape, so a narrower screen (a phone held upright) still shows it all.
    if (view) setCamera({ ...view, position: round(view.position), target: round(view.target) });
    else toast({ severity: "warn", summary: "No view yet", detail: "Wait until the model is shown, then try again." });
  };

  const takeThumbnailFromView = async () => {
    const picture = captureView();
    if (!picture) {
      toast({ severity: "warn", summary: "No view yet", detail: "Wait until the model is shown, then try again." });
      return;
    }
    setCapturing(true);
    try {
      await uploadItemThumbnail(api, itemId, await picture);
      toast({ severity: "success", summary: "Saved", detail: "The thumbnail now shows this view." });
      onSaved();
    } catch (error) {
      toast({ severity: "warn", summary: "Thumbnail not updated", detail: (error as Error).message });
    } finally {
      setCapturing(false);
    }
  };

  return (
    <form
      className="share-panel viewer-settings"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className="embed-option">
        <input
          id="viewer-background"
          type="color"
          value={background ?? DEFAULT_PICKER_COLOUR}
          onChange={(e) => setBackground(e.target.value)}
          aria-describedby="viewer-background-note"
        />
        <label htmlFor="viewer-background">Background colour</label>
        {background ? <Button type="button" size="small" text label="Use default" onClick={() => setBackground(null)} /> : null}
      </div>
      <p id="viewer-background-note" className="share-note">
        {background ? `Custom: ${background}` : "Default dark grey"}
      </p>
      <div className="embed-option">
        <Checkbox inputId="viewer-autorotate" checked={autorotate} onChange={(e) => setAutorotate(!!e.checked)} />
        <label htmlFor="viewer-autorotate">Rotate slowly until the visitor moves the model</label>
      </div>
      <div className="embed-option">
        <label htmlFor="viewer-speed">Rotation speed</label>
        <select id="viewer-speed" className="p-inputtext" value={speed} disabled={!autorotate} onChange={(e) => setSpeed(Number(e.target.value))}>
          {SPEEDS.some((s) => s.value === speed) ? null : <option value={speed}>{speed}×</option>}
          {SPEEDS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <div className="embed-option">
        <label htmlFor="viewer-fov">Field of view</label>
        <input
          id="viewer-fov"
          type="range"
          min={FIELD_OF_VIEW.min}
          max={FIELD_OF_VIEW.max}
          step={1}
          value={fov ?? VIEWER_FOV}
          aria-describedby="viewer-fov-note"
          onChange={(e) => setFov(Number(e.target.value))}
        />
        {fov !== null ? <Button type="button" size="small" text label="Use default" onClick={() => setFov(null)} /> : null}
      </div>
      <p id="viewer-fov-note" className="share-note" data-testid="viewer-fov-note">
        {fov !== null ? `${fov}° (wider shows more around the model)` : `Default: ${camera?.fov ? `the saved view's ${camera.fov}°` : `${VIEWER_FOV}°`}`}
      </p>
      <div className="embed-option">
        <label htmlFor="viewer-units">Units for measurements</label>
        <select id="viewer-units" className="p-inputtext" value={units} onChange={(e) => setUnits(e.target.value as LengthUnit)}>
          {LENGTH_UNITS.map((unit) => (
            <option key={unit} value={unit}>
              {UNIT_NAMES[unit]}
            </option>
          ))}
        </select>
      </div>
      <div className="embed-option">
        <span data-testid="viewer-camera-state">{camera ? "Opens at the view you saved" : "Opens framed automatically"}</span>
        <Button type="button" size="small" outlined label="Use the current view" icon="pi pi-camera" onClick={useCurrentView} />
        {camera ? <Button type="button" size="small" text label="Frame automatically" onClick={() => setCamera(null)} /> : null}
      </div>
      <div className="embed-option">
        <Button type="button" size="small" outlined label="Use this view as the thumbnail" icon="pi pi-image" loading={capturing} onClick={() => void takeThumbnailFromView()} />
      </div>
      <Button type="submit" label="Save viewer settings" loading={saving} />
    </form>
  );
}

function round(v: [number, number, number]): [number, number, number] {
  return v.map((n) => Math.round(n * 1e4) / 1e4) as [number, number, number];
}
