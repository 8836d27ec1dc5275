/**
 * A least-recently-used map held to a budget of bytes: each value is weighed once, when it is set, and the
 * least recently used values go first when the total passes the budget. A value heavier than the whole
 * budget is not kept. (A Map iterates in insertion order; a hit re-inserts.)
 */
export class ByteBudgetLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly weigh: (value: V) => number,
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
    this.entries.set(key, { value, bytes });
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
  }

  /** Forgets every value `drop` picks. */
  deleteWhere(drop: (value: V, key: string) => boolean): void {
    for (const [key, { value }] of this.entries) if (drop(value, key)) this.delete(key);
  }
}
