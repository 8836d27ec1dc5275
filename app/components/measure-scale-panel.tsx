import { Button } from "primereact/button";
import { useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { LENGTH_UNITS, type LengthUnit, type ViewerSettings } from "~/domain/viewer-settings";
import { formatLength, metersPerUnitFromKnownLength, toRealLength, UNIT_LABELS } from "~/lib/measure";
import { useToast } from "./toast-provider";

/**
 * Real-world scale (issue 6): the owner measures a length they know on the model (the viewer's
 * Measure tool), types its real length, and the item's viewer settings get `meters_per_unit`
 * (PATCH /v1/item/{id}/settings). Every later measurement, for every visitor, reads through it.
 */
export function MeasureScalePanel({
  itemId,
  settings,
  measured,
  onSaved,
}: {
  itemId: string;
  settings: Pick<ViewerSettings, "units" | "meters_per_unit">;
  /** The viewer's finished measurement in model units, or null. */
  measured: number | null;
  onSaved: () => void;
}) {
  const { api } = useAuth();
  const toast = useToast();
  const [realLength, setRealLength] = useState("");
  const [unit, setUnit] = useState<LengthUnit>(settings.units);
  const [busy, setBusy] = useState(false);
  const scale = measured === null ? null : metersPerUnitFromKnownLength({ modelLength: measured, realLength: Number(realLength), unit });

  const save = async (metersPerUnit: number | null) => {
    setBusy(true);
    try {
      await api(`/item/${itemId}/settings`, { method: "PATCH", body: { meters_per_unit: metersPerUnit } });
      toast({ severity: "success", summary: "Saved", detail: metersPerUnit === null ? "The scale was reset." : "Measurements now use this scale." });
      setRealLength("");
      onSaved();
    } catch (error) {
      toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="edit-panel" aria-labelledby="scale-heading" data-testid="scale-panel">
      <h2 id="scale-heading">Real-world scale</h2>
      <p className="item-panel-note" style={{ margin: 0 }} data-testid="scale-current">
        {settings.meters_per_unit === null
          ? "Not set: one model unit counts as one metre."
          : `One model unit is ${formatLength(toRealLength({ modelLength: 1, metersPerUnit: settings.meters_per_unit, unit: settings.units }), settings.units)}.`}
      </p>
      {measured === null ? (
        <p className="item-panel-note" style={{ margin: 0 }}>
          To set it, press Measure on the viewer and click both ends of something whose length you know.
        </p>
      ) : (
        <form
          style={{ display: "grid", gap: 6 }}
          onSubmit={(event) => {
            event.preventDefault();
            if (scale !== null) void save(scale);
          }}
        >
          <p className="item-panel-note" style={{ margin: 0 }}>
            Measured now: {formatLength(toRealLength({ modelLength: measured, metersPerUnit: settings.meters_per_unit, unit: settings.units }), settings.units)}.
          </p>
          <label htmlFor="scale-real-length">Its real length</label>
          <div style={{ display: "flex", gap: 6 }}>
            <input
              id="scale-real-length"
              className="p-inputtext"
              type="number"
              min="0"
              step="any"
              inputMode="decimal"
              required
              value={realLength}
              onChange={(e) => setRealLength(e.target.value)}
              style={{ flex: 1, minWidth: 0 }}
            />
            <select className="p-inputtext" aria-label="Unit of the real length" value={unit} onChange={(e) => setUnit(e.target.value as LengthUnit)}>
              {LENGTH_UNITS.map((u) => (
                <option key={u} value={u}>
                  {UNIT_LABELS[u]}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" size="small" label="Set scale" disabled={busy || scale === null} />
        </form>
      )}
      {settings.meters_per_unit !== null ? <Button type="button" size="small" text label="Reset scale" disabled={busy} onClick={() => void save(null)} /> : null}
    </section>
  );
}
