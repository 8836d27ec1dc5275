export type ModelVariant = "splat" | "mesh";

const OPTIONS: Array<{ label: string; value: ModelVariant; icon: string }> = [
  { label: "Splat", value: "splat", icon: "pi pi-sparkles" },
  { label: "Textured mesh", value: "mesh", icon: "pi pi-box" },
];

/** A scan has two models (issue 14): its gaussian splat and its textured mesh. This picks which one the viewer shows. */
export function ModelVariantSwitch({ value, onChange }: { value: ModelVariant; onChange: (value: ModelVariant) => void }) {
  return (
    <span className="p-buttonset model-variant-switch" role="group" aria-label="Show the scan as">
      {OPTIONS.map((option) => (
        <button
          key={option.value}
          type="button"
          className={`p-button p-button-sm${option.value === value ? "" : " p-button-outlined"}`}
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
        >
          <i className={option.icon} aria-hidden="true" />
          &nbsp;{option.label}
        </button>
      ))}
    </span>
  );
}
