import { Button } from "primereact/button";
import { ColorPicker } from "primereact/colorpicker";
import { InputText } from "primereact/inputtext";
import { isSafeCssColor } from "~/lib/css-color";

const HEX6 = /^#([0-9a-f]{6})$/i;

/** Black or white, whichever contrasts more with the swatch (WCAG relative luminance). */
function readableOn(hex: string): string {
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? "#000000" : "#ffffff";
}

/**
 * A colour: a picker for quick choices, a text field for any CSS colour (rgba for translucency), and
 * Default to go back to SPEC's default (stored as no colour, so the theme's colour applies).
 */
export function ColorField({
  id,
  label,
  value,
  defaultValue,
  defaultHex,
  onChange,
}: {
  id: string;
  label: string;
  value: string | null;
  /** SPEC's default as people read it, e.g. "rgba(255, 255, 255, 0.1)". */
  defaultValue: string;
  /** The default as the picker shows it (6 hex digits, no #). */
  defaultHex: string;
  onChange: (value: string | null) => void;
}) {
  const hex = value ? HEX6.exec(value.trim())?.[1] : undefined;
  const invalid = value !== null && value.trim() !== "" && !isSafeCssColor(value);
  return (
    <div className="color-field">
      <label htmlFor={`${id}-text`}>{label}</label>
      <div className="color-field-row">
        <ColorPicker
          inputId={`${id}-picker`}
          aria-label={`${label} picker`}
          format="hex"
          value={hex ?? defaultHex}
          inputStyle={{ color: readableOn(hex ?? defaultHex) }}
          onChange={(event) => typeof event.value === "string" && onChange(`#${event.value}`)}
        />
        <InputText
          id={`${id}-text`}
          value={value ?? ""}
          placeholder={`Default: ${defaultValue}`}
          invalid={invalid}
          aria-describedby={invalid ? `${id}-error` : undefined}
          onChange={(event) => onChange(event.target.value.trim() === "" ? null : event.target.value)}
        />
        <Button type="button" text size="small" label="Default" onClick={() => onChange(null)} disabled={value === null} />
      </div>
      {invalid ? (
        <small id={`${id}-error`} className="p-error">
          Use a CSS colour such as #1f2937 or rgba(255, 255, 255, 0.1).
        </small>
      ) : null}
    </div>
  );
}
