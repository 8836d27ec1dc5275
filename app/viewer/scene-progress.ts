/** Download progress of a scene: the bytes of all its parts together. */
export interface PartProgress {
  loaded: number;
  /** Null while the part's size is unknown. */
  total: number | null;
}

/**
 * Summed progress; `parts` holds null for a part whose download has not started. The total is
 * null until every part's size is known (a bar over a partial total would run backwards).
 */
export function sumProgress(parts: ReadonlyArray<PartProgress | null>): { loaded: number; total: number | null } {
  let loaded = 0;
  let total: number | null = 0;
  for (const part of parts) {
    loaded += part?.loaded ?? 0;
    if (total !== null && part && part.total !== null) total += part.total;
    else total = null;
  }
  return { loaded, total: parts.length === 0 ? null : total };
}
