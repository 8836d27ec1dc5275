/**
 * Reordering lists (announcements, categories): a new order must name every existing id exactly once,
 * so a stale screen can never drop or duplicate a row. Returns what is wrong, or null when it is fine.
 */
export function checkCompleteOrder({ requested, existing, field }: { requested: string[]; existing: string[]; field: string }): string | null {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const id of requested) {
    if (seen.has(id)) duplicates.add(id);
    seen.add(id);
  }
  if (duplicates.size > 0) return `${field} names ${[...duplicates].join(", ")} more than once`;
  const known = new Set(existing);
  const unknown = requested.filter((id) => !known.has(id));
  if (unknown.length > 0) return `${field} contains unknown ids: ${unknown.join(", ")}`;
  const missing = existing.filter((id) => !seen.has(id));
  if (missing.length > 0) return `${field} must list every one of them; missing: ${missing.join(", ")}`;
  return null;
}

/** The list with the entry at `from` moved to `to` (a keyboard "move up/down" or a drop). */
export function moveEntry<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  if (from < 0 || from >= next.length || to < 0 || to >= next.length) return next;
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}
