import { useEffect, useState } from "react";
import { MAX_PART_SCALE, MIN_PART_SCALE } from "~/domain/scene-schemas";
import { degreesFromQuaternion, quaternionFromDegrees, type Degrees3 } from "./rotation";
import type { EditorTransform } from "./scene-editor-state";

const AXES = ["x", "y", "z"] as const;

/** A number field that keeps what is being typed ("-", "1.") and reports only numbers. */
function NumberField({ id, label, value, step, onValue }: { id: string; label: string; value: number; step: number; onValue: (value: number) => void }) {
  const [text, setText] = useState(String(value));
  useEffect(() => {
    // The gizmo moved the part: show its new value unless the field already means it.
    setText((current) => (Number(current) === value ? current : String(Math.round(value * 1000) / 1000)));
  }, [value]);
  return (
    <label htmlFor={id} className="builder-number">
      <span>{label}</span>
      <input
        id={id}
        className="p-inputtext p-inputtext-sm"
        type="number"
        step={step}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          const parsed = Number(event.target.value);
          if (event.target.value.trim() !== "" && Number.isFinite(parsed)) onValue(parsed);
        }}
      />
    </label>
  );
}

/** Position, rotation (degrees, XYZ) and uniform scale of the selected part, as numbers. */
export function PartTransformFields({ transform, onChange }: { transform: EditorTransform; onChange: (next: EditorTransform) => void }) {
  const degrees = degreesFromQuaternion(transform.quaternion);
  const setPosition = (axis: number, value: number) => {
    const position = [...transform.position] as EditorTransform["position"];
    position[axis] = value;
    onChange({ ...transform, position });
  };
  const setRotation = (axis: number, value: number) => {
    const next = [...degrees] as Degrees3;
    next[axis] = value;
    onChange({ ...transform, quaternion: quaternionFromDegrees(next) });
  };
  const setScale = (value: number) => {
    const clamped = Math.min(MAX_PART_SCALE, Math.max(MIN_PART_SCALE, value));
    onChange({ ...transform, scale: [clamped, clamped, clamped] });
  };
  return (
    <div className="builder-fields">
      <fieldset>
        <legend>Position</legend>
        {AXES.map((axis, index) => (
          <NumberField key={axis} id={`part-position-${axis}`} label={axis.toUpperCase()} value={transform.position[index]} step={0.1} onValue={(value) => setPosition(index, value)} />
        ))}
      </fieldset>
      <fieldset>
        <legend>Rotation (°)</legend>
        {AXES.map((axis, index) => (
          <NumberField key={axis} id={`part-rotation-${axis}`} label={axis.toUpperCase()} value={degrees[index]} step={15} onValue={(value) => setRotation(index, value)} />
        ))}
      </fieldset>
      <fieldset>
        <legend>Scale</legend>
        <NumberField id="part-scale" label="×" value={transform.scale[0]} step={0.1} onValue={setScale} />
      </fieldset>
    </div>
  );
}
