/**
 * Image pairs to match in a large photo set (more than ~80 photos, where matching every pair costs
 * too much on a CPU; COLMAP's vocabulary-tree matcher needs a tree file we cannot download). Photos
 * arrive in capture order (image-001, image-002, …), so each is matched with its `window` neighbours
 * in that order, and with a spread of keyframes across the whole set, which closes loops and joins
 * passes at different heights. Pure.
 */
export function matchPairs(names: string[], { window = 12, keyframes = 24 } = {}): Array<[string, string]> {
  const n = names.length;
  const seen = new Set<string>();
  const pairs: Array<[string, string]> = [];
  const add = (i: number, j: number) => {
    if (i === j) return;
    const [a, b] = i < j ? [i, j] : [j, i];
    const id = `${a}:${b}`;
    if (seen.has(id)) return;
    seen.add(id);
    pairs.push([names[a], names[b]]);
  };
  for (let i = 0; i < n; i++) for (let d = 1; d <= window && i + d < n; d++) add(i, i + d);
  const step = Math.max(1, Math.floor(n / Math.max(1, keyframes)));
  for (let k = 0; k < n; k += step) for (let i = 0; i < n; i++) add(k, i);
  return pairs;
}
