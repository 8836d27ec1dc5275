import { Button } from "primereact/button";
import { Checkbox } from "primereact/checkbox";
import { useEffect, useRef, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { AUTOROTATE_SPEED, FIELD_OF_VIEW, LENGTH_UNITS, type LengthUnit, type ViewerSettings } from "~/domain/viewer-settings";
import { backgroundCss, ENVIRONMENT_NAMES, ENVIRONMENTS, type EnvironmentName, type ViewerBackground } from "~/viewer/background";
import { VIEWER_FOV } from "~/viewer/camera-fit";
import { uploadItemThumbnail } from "~/components/item-thumbnail";
import type { CameraView } from "~/viewer/camera-view";
import { useToast } from "./toast-provider";
import type { ViewerLook, ViewerPreview } from "./viewer-preview";

const UNIT_NAMES: Record<LengthUnit, string> = { m: "Metres", cm: "Centimetres", mm: "Millimetres", in: "Inches", ft: "Feet" };
const DEFAULT_PICKER_COLOUR = "#1e1f22";
/** A gradient's colours until the owner picks theirs: a soft grey sky over a dark floor. */
const DEFAULT_GRADIENT = { top: "#5b6270", bottom: "#15171b" } as const;
type BackgroundKind = "default" | "colour" | "gradient" | "environment";
const BACKGROUND_KINDS: { value: BackgroundKind; label: string }[] = [
  { value: "default", label: "Default (dark grey)" },
  { value: "colour", label: "Colour" },
  { value: "gradient", label: "Gradient" },
  { value: "environment", label: "Environment" },
];

/** The form's background fields from a stored background. */
function backgroundFields(background: ViewerBackground | null) {
  return {
    kind: (background === null ? "default" : typeof background === "string" ? "colour" : background.type) as BackgroundKind,
    colour: typeof background === "string" ? background : DEFAULT_PICKER_COLOUR,
    top: background && typeof background === "object" && background.type === "gradient" ? background.top : DEFAULT_GRADIENT.top,
    bottom: background && typeof background === "object" && background.type === "gradient" ? background.bottom : DEFAULT_GRADIENT.bottom,
    environment: (background && typeof background === "object" && background.type === "environment" ? background.name : "studio") as EnvironmentName,
  };
}
const SPEEDS = [
  { value: 0.5, label: "Slow" },
  { value: 1, label: "Normal" },
  { value: 2, label: "Fast" },
  { value: AUTOROTATE_SPEED.max, label: "Very fast" },
] as const;

/**
 * The Viewer tab of the Share / Embed dialog: how the model opens everywhere (page, viewer, embeds) —
 * PATCH /v1/item/{id}/settings. The opening view is taken from the viewer on the page, and so is the
 * thumbnail when the owner asks for "this view" (any model, as Builder scenes). Background, rotation and field of
 * view show on the page's viewer as they are chosen (`preview`); Cancel, or leaving the tab unsaved, takes them back.
 */
export function ViewerSettingsPanel({
  itemId,
  settings,
  getCurrentView,
  captureView,
  onSaved,
  preview,
}: {
  itemId: string;
  settings: ViewerSettings;
  getCurrentView: () => CameraView | null;
  /** A picture of what the viewer shows now, or null while it shows nothing. */
  captureView: () => Promise<Blob> | null;
  onSaved: () => void;
  /** The page's viewer, to show unsaved choices on. */
  preview?: ViewerPreview;
}) {
  const { api } = useAuth();
  const toast = useToast();
  const initial = backgroundFields(settings.background);
  const [backgroundKind, setBackgroundKind] = useState<BackgroundKind>(initial.kind);
  const [colour, setColour] = useState(initial.colour);
  const [gradientTop, setGradientTop] = useState(initial.top);
  const [gradientBottom, setGradientBottom] = useState(initial.bottom);
  const [environment, setEnvironment] = useState<EnvironmentName>(initial.environment);
  const background: ViewerBackground | null =
    backgroundKind === "colour"
      ? colour
      : backgroundKind === "gradient"
        ? { type: "gradient", top: gradientTop, bottom: gradientBottom }
        : backgroundKind === "environment"
          ? { type: "environment", name: environment }
          : null;
  const [autorotate, setAutorotate] = useState(settings.autorotate);
  const [speed, setSpeed] = useState(settings.autorotate_speed);
  const [fov, setFov] = useState<number | null>(settings.fov);
  const [units, setUnits] = useState<LengthUnit>(settings.units);
  const [camera, setCamera] = useState<CameraView | null>(settings.camera);
  const [saving, setSaving] = useState(false);
  const [capturing, setCapturing] = useState(false);

  // The live preview: the page's viewer shows the choices at once; back to the saved look when they match it again,
  // on Cancel, and when the panel goes (the dialog closed, another tab) without saving.
  const lookOf = (values: { background: ViewerBackground | null; autorotate: boolean; speed: number; fov: number | null; camera: CameraView | null }): ViewerLook => ({
    background: values.background,
    autorotate: values.autorotate,
    autorotateSpeed: values.speed,
    fov: values.fov ?? values.camera?.fov ?? VIEWER_FOV,
  });
  const savedLook = useRef(JSON.stringify(lookOf({ ...settings, speed: settings.autorotate_speed })));
  const look = lookOf({ background, autorotate, speed, fov, camera: settings.camera });
  const lookKey = JSON.stringify(look);
  const previewRef = useRef(preview);
  previewRef.current = preview;
  useEffect(() => {
    if (lookKey === savedLook.current) previewRef.current?.restore();
    else previewRef.current?.show(JSON.parse(lookKey) as ViewerLook);
  }, [lookKey]);
  useEffect(() => () => previewRef.current?.restore(), []);

  const cancel = () => {
    const fields = backgroundFields(settings.background);
    setBackgroundKind(fields.kind);
    setColour(fields.colour);
    setGradientTop(fields.top);
    setGradientBottom(fields.bottom);
    setEnvironment(fields.environment);
    setAutorotate(settings.autorotate);
    setSpeed(settings.autorotate_speed);
    setFov(settings.fov);
    setUnits(settings.units);
    setCamera(settings.camera);
    previewRef.current?.restore();
  };

  const save = async () => {
    setSaving(true);
    try {
      await api(`/item/${itemId}/settings`, { method: "PATCH", body: { background, autorotate, autorotate_speed: speed, fov, units, camera } });
      savedLook.current = lookKey;
      preview?.keep();
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
        <label htmlFor="viewer-background-kind">Background</label>
        <select
          id="viewer-background-kind"
          className="p-inputtext"
          value={backgroundKind}
          onChange={(e) => setBackgroundKind(e.target.value as BackgroundKind)}
          aria-describedby="viewer-background-note"
        >
          {BACKGROUND_KINDS.map((kind) => (
            <option key={kind.value} value={kind.value}>
              {kind.label}
            </option>
          ))}
        </select>
        <span className="viewer-background-swatch" aria-hidden="true" style={{ background: backgroundCss(background) }} />
      </div>
      {backgroundKind === "colour" ? (
        <div className="embed-option">
          <input id="viewer-background" type="color" value={colour} onChange={(e) => setColour(e.target.value)} />
          <label htmlFor="viewer-background">Background colour</label>
        </div>
      ) : null}
      {backgroundKind === "gradient" ? (
        <>
          <div className="embed-option">
            <input id="viewer-gradient-top" type="color" value={gradientTop} onChange={(e) => setGradientTop(e.target.value)} />
            <label htmlFor="viewer-gradient-top">Top colour</label>
          </div>
          <div className="embed-option">
            <input id="viewer-gradient-bottom" type="color" value={gradientBottom} onChange={(e) => setGradientBottom(e.target.value)} />
            <label htmlFor="viewer-gradient-bottom">Bottom colour</label>
          </div>
        </>
      ) : null}
      {backgroundKind === "environment" ? (
        <fieldset className="embed-options viewer-environments">
          <legend>Environment</legend>
          {ENVIRONMENT_NAMES.map((name) => (
            <label key={name} className="embed-option viewer-environment">
              <input type="radio" name="viewer-environment" value={name} checked={environment === name} onChange={() => setEnvironment(name)} />
              <span className="viewer-background-swatch" aria-hidden="true" style={{ background: backgroundCss({ type: "environment", name }) }} />
              {ENVIRONMENTS[name].label}
            </label>
          ))}
        </fieldset>
      ) : null}
      <p id="viewer-background-note" className="share-note" data-testid="viewer-background-note">
        {backgroundNote(background)}
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
      <div className="embed-option">
        <Button type="submit" label="Save viewer settings" loading={saving} />
        <Button type="button" outlined label="Cancel" onClick={cancel} disabled={saving} />
      </div>
      <p className="share-note">The model above shows your choices as you make them; they apply everywhere once saved.</p>
    </form>
  );
}

function backgroundNote(background: ViewerBackground | null): string {
  if (background === null) return "Default dark grey";
  if (typeof background === "string") return `Custom: ${background}`;
  if (background.type === "gradient") return `Gradient from ${background.top} at the top to ${background.bottom} at the bottom`;
  return `${ENVIRONMENTS[background.name].label}: a sky around the model that also lights meshes (splats keep their own light)`;
}

function round(v: [number, number, number]): [number, number, number] {
  return v.map((n) => Math.round(n * 1e4) / 1e4) as [number, number, number];
}
