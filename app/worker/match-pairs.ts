import type { VerifiedPair } from "./verified-pairs";

/**
 * Image pairs to match in a large photo set (more than ~80 photos, where matching every pair costs
 * too much on a CPU; COLMAP's vocabulary-tree matcher needs a tree file we cannot download). Photos
 * arrive in capture order (image-001, image-002, …), so each is matched with its `window` neighbours
 * in that order, and with a spread of keyframes across the whole set, which closes loops and joins
 * passes at different heights. Pure.
 */
export function matchPairs(names: string[], { window = 12, keyframes = 24 } = {}): Array<[string, string]> {
  const n = names.length;
  const pairs = new PairSet(names);
  for (let i = 0; i < n; i++) for (let d = 1; d <= window && i + d < n; d++) pairs.add(i, i + d);
  const step = Math.max(1, Math.floor(n / Math.max(1, keyframes)));
  for (let k = 0; k < n; k += step) for (let i = 0; i < n; i++) pairs.add(k, i);
  return pairs.list;
}

/**
 * The pairs worth matching at full detail, from a cheap pre-pass that matched small copies of the photos (few
 * features each) and verified them: each photo with the `partners` photos it shared the most verified matches
 * with; a photo the pre-pass tied to fewer (a wide baseline, little texture at the small size) is filled up to
 * `partners` with its nearest photos in capture order, and every photo is paired with the next one. Pure.
 */
export function pairsByOverlap(names: string[], verified: VerifiedPair[], { partners = 8 } = {}): Array<[string, string]> {
  const index = new Map(names.map((name, i) => [name, i]));
  const byImage = names.map(() => [] as Array<{ other: number; inliers: number }>);
  for (const pair of verified) {
    const a = index.get(pair.a);
    const b = index.get(pair.b);
    if (a === undefined || b === undefined || a === b) continue;
    byImage[a].push({ other: b, inliers: pair.inliers });
    byImage[b].push({ other: a, inliers: pair.inliers });
  }
  const pairs = new PairSet(names);
  for (const [i, list] of byImage.entries()) {
    list.sort((x, y) => y.inliers - x.inliers || x.other - y.other);
    const chosen = new Set(list.slice(0, partners).map(({ other }) => other));
    for (let d = 1; chosen.size < Math.min(partners, names.length - 1); d++) {
      if (i - d >= 0) chosen.add(i - d);
      if (chosen.size < partners && i + d < names.length) chosen.add(i + d);
    }
    for (const other of chosen) pairs.add(i, other);
  }
  for (let i = 0; i + 1 < names.length; i++) pairs.add(i, i + 1);
  return pairs.list;
}

/** Unordered pairs of names, each once, in the order first added. */
class PairSet {
  private readonly seen = new Set<string>();
  readonly list: Array<[string, string]> = [];

  constructor(private readonly names: string[]) {}

  add(i: number, j: number) {
    if (i === j) return;
    const [a, b] = i < j ? [i, j] : [j, i];
    const id = `${a}:${b}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.list.push([this.names[a], this.names[b]]);
  }
}
