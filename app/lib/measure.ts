import type { LengthUnit } from "~/domain/viewer-settings";

/**
 * The measuring tool's maths (issue 6): distances between two picked points, in the item's units,
 * through the real-world scale the owner set from one known length. Scale is stored as metres per
 * model unit (viewer settings `meters_per_unit`); without one, a model unit is a metre (glTF's unit).
 */
export type Point3 = readonly [number, number, number];

export const METERS_PER_UNIT_OF: Record<LengthUnit, number> = { m: 1, cm: 0.01, mm: 0.001, in: 0.0254, ft: 0.3048 };

export const UNIT_LABELS: Record<LengthUnit, string> = {
  m: "metres",
  cm: "centimetres",
  mm: "millimetres",
  in: "inches",
  ft: "feet",
};

/** Straight-line distance between two points, in model units. */
export function modelDistance(a: Point3, b: Point3): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
}

/** A length in model units expressed in `unit`. */
export function toRealLength({ modelLength, metersPerUnit, unit }: { modelLength: number; metersPerUnit: number | null; unit: LengthUnit }): number {
  return (modelLength * (metersPerUnit ?? 1)) / METERS_PER_UNIT_OF[unit];
}

/**
 * The scale that makes a measured model length equal a known real length, or null when the
 * measurement cannot define one (zero, negative or not finite).
 */
export function metersPerUnitFromKnownLength({ modelLength, realLength, unit }: { modelLength: number; realLength: number; unit: LengthUnit }): number | null {
  if (!Number.isFinite(modelLength) || !Number.isFinite(realLength) || modelLength <= 0 || realLength <= 0) return null;
  const scale = (realLength * METERS_PER_UNIT_OF[unit]) / modelLength;
  return Number.isFinite(scale) && scale > 0 ? scale : null;
}

/** "1.25 m", "38.1 cm", "412 mm", "0.00401 m": three significant figures (whole numbers from 100). */
export function formatLength(value: number, unit: LengthUnit): string {
  const text = Math.abs(value) >= 100 ? value.toFixed(0) : String(Number(value.toPrecision(3)));
  return `${text} ${unit}`;
}
