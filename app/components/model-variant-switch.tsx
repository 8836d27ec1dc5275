import { SelectButton } from "primereact/selectbutton";

export type ModelVariant = "splat" | "mesh";

const OPTIONS: Array<{ label: string; value: ModelVariant; icon: string }> = [
  { label: "Splat", value: "splat", icon: "pi pi-sparkles" },
  { label: "Textured mesh", value: "mesh", icon: "pi pi-box" },
];

/** A scan has two models (issue 14): its gaussian splat and its textured mesh. This picks which one the viewer shows. */
export function ModelVariantSwitch({ value, onChange }: { value: ModelVariant; onChange: (value: ModelVariant) => void }) {
  return (
    <SelectButton
      className="model-variant-switch"
      aria-label="Show the scan as"
      value={value}
      options={OPTIONS}
      optionLabel="label"
      optionValue="value"
      allowEmpty={false}
      onChange={(event) => onChange(event.value as ModelVariant)}
      itemTemplate={(option: (typeof OPTIONS)[number]) => (
        <span>
          <i className={option.icon} aria-hidden="true" />
          &nbsp;{option.label}
        </span>
      )}
    />
  );
}
