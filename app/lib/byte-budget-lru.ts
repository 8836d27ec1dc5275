/**
 * A least-recently-used map held to a budget of bytes: each value is weighed once, when it is set, and the
 * least recently used values go first when the total passes the budget. A value heavier than the whole
 * budget is not kept. (A Map iterates in insertion order; a hit re-inserts.)
 *
 * Values may be tagged (`tagsOf`, e.g. what a kept page shows): `deleteTagged` forgets every value with a tag
 * without looking at the others, so a change that names one model costs what it forgets, not what is kept.
 */
export class ByteBudgetLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number; tags: readonly string[] }>();
  private readonly keysByTag = new Map<string, Set<string>>();
  private total = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly weigh: (value: V) => number,
    private readonly tagsOf: (value: V) => readonly string[] = () => [],
  ) {}

  /** The bytes held now. */
  get bytes(): number {
    return this.total;
  }

  /** The value under `key`, which becomes the most recently used. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** The value under `key`, leaving the order of use alone. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const bytes = this.weigh(value);
    if (bytes > this.maxBytes) return;
    const tags = this.tagsOf(value);
    this.entries.set(key, { value, bytes, tags });
    for (const tag of tags) {
      const keys = this.keysByTag.get(tag);
      if (keys) keys.add(key);
      else this.keysByTag.set(tag, new Set([key]));
    }
    this.total += bytes;
    for (const oldest of this.entries.keys()) {
      if (this.total <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.total -= entry.bytes;
    this.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByTag.delete(tag);
    }
  }

  /** Forgets every value `drop` picks. */
  deleteWhere(drop: (value: V, key: string) => boolean): void {
    for (const [key, { value }] of this.entries) if (drop(value, key)) this.delete(key);
  }

  /** Forgets every value. */
  clear(): void {
    this.entries.clear();
    this.keysByTag.clear();
    this.total = 0;
  }

  /** Forgets every value tagged `tag`. */
  deleteTagged(tag: string): void {
    const keys = this.keysByTag.get(tag);
    if (keys) for (const key of [...keys]) this.delete(key);
  }
}
