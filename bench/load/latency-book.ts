// The load bench's record of answers, per kind of request: each answer's time and status, and the
// requests that got no answer at all (refused or cut connections), with the figures the bench prints.
import { quantile } from "../bench-support";

export interface KindFigures {
  kind: string;
  answered: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  serverErrors: number;
  /** Other non-2xx/3xx answers, e.g. "404×2". */
  otherStatuses: string;
  connectionErrors: number;
}

interface KindRecord {
  ms: number[];
  statuses: Map<number, number>;
  connectionErrors: number;
}

/** The windows over which the bench prints the tail as the run went. */
export const WINDOW_SECONDS = 30;

/** One window of the run: its end (seconds since the start), how many answers came in it, and their p99. */
export interface LatencyWindow {
  endsAt: number;
  answered: number;
  p99: number;
}

export class LatencyBook {
  private readonly kinds = new Map<string, KindRecord>();
  /** Every answer's time and when it came (ms since `startedAt`), over all kinds: the tail over the run. */
  private readonly timeline: Array<{ at: number; ms: number; kind: string }> = [];

  /** `startedAt`: the run's start (ms since the epoch), from which answers are placed in windows. */
  constructor(private readonly startedAt = Date.now()) {}
  /** Why requests got no answer ("PUT: other side closed"), and how often. */
  readonly unansweredWhy = new Map<string, number>();

  private of(kind: string): KindRecord {
    let record = this.kinds.get(kind);
    if (!record) this.kinds.set(kind, (record = { ms: [], statuses: new Map(), connectionErrors: 0 }));
    return record;
  }

  answered(kind: string, ms: number, status: number): void {
    this.timeline.push({ at: Date.now() - this.startedAt, ms, kind });
    const record = this.of(kind);
    record.ms.push(ms);
    record.statuses.set(status, (record.statuses.get(status) ?? 0) + 1);
  }

  unanswered(kind: string, why?: string): void {
    this.of(kind).connectionErrors++;
    if (why) this.unansweredWhy.set(`${kind}: ${why}`, (this.unansweredWhy.get(`${kind}: ${why}`) ?? 0) + 1);
  }

  /** Each kind's p99 in the run's first `windowSeconds` (where the tail of a run is): which kinds make it. */
  firstWindowByKind(windowSeconds: number): Array<{ kind: string; p99: number }> {
    return [...this.kinds.keys()].map((kind) => ({ kind, p99: this.windows(windowSeconds, kind).find((w) => w.endsAt === windowSeconds)?.p99 ?? NaN }));
  }

  figures(seconds: number): KindFigures[] {
    return [...this.kinds].map(([kind, record]) => figuresOf(kind, record, seconds));
  }

  /**
   * The p99 of all kinds' answers (or of `kind`'s) in each `windowSeconds` of the run (whether the tail is the first
   * minute's or every minute's).
   */
  windows(windowSeconds: number, kind?: string): LatencyWindow[] {
    const byWindow = new Map<number, number[]>();
    for (const { at, ms, kind: of } of this.timeline) {
      if (kind !== undefined && of !== kind) continue;
      const index = Math.floor(at / 1000 / windowSeconds);
      const list = byWindow.get(index);
      if (list) list.push(ms);
      else byWindow.set(index, [ms]);
    }
    return [...byWindow]
      .sort(([a], [b]) => a - b)
      .map(([index, list]) => ({ endsAt: (index + 1) * windowSeconds, answered: list.length, p99: quantile(Float64Array.from(list).sort(), 0.99) }));
  }

  /** Every kind's answers as one (e.g. "all visitor GETs"). */
  total(label: string, seconds: number): KindFigures {
    const all: KindRecord = {
      ms: [],
      statuses: new Map(),
      connectionErrors: 0,
    };
    for (const record of this.kinds.values()) {
      for (const ms of record.ms) all.ms.push(ms);
      for (const [status, count] of record.statuses) all.statuses.set(status, (all.statuses.get(status) ?? 0) + count);
      all.connectionErrors += record.connectionErrors;
    }
    return figuresOf(label, all, seconds);
  }
}

function figuresOf(kind: string, record: KindRecord, seconds: number): KindFigures {
  const list = Float64Array.from(record.ms).sort();
  let serverErrors = 0;
  const other: string[] = [];
  for (const [status, count] of [...record.statuses].sort(([a], [b]) => a - b)) {
    if (status >= 500) serverErrors += count;
    if (status >= 400) other.push(`${status}×${count}`);
  }
  return {
    kind,
    answered: list.length,
    perSecond: list.length / seconds,
    p50: quantile(list, 0.5),
    p95: quantile(list, 0.95),
    p99: quantile(list, 0.99),
    max: list.length ? list[list.length - 1] : NaN,
    serverErrors,
    otherStatuses: other.join(" "),
    connectionErrors: record.connectionErrors,
  };
}

/** "30 s 1200 · 60 s 310 · …": each window's p99 in ms. */
export function formatWindows(windows: LatencyWindow[]): string {
  return windows.map((w) => `${w.endsAt} s ${w.p99.toFixed(0)}`).join(" · ");
}

/** The table the bench prints: one line per kind of request. */
export function formatFigures(rows: KindFigures[]): string {
  const ms = (value: number) => (Number.isNaN(value) ? "-" : value.toFixed(value < 10 ? 1 : 0)).padStart(7);
  const head = `${"request".padEnd(34)} ${"answers".padStart(8)} ${"per s".padStart(7)} ${"p50 ms".padStart(7)} ${"p95 ms".padStart(
    7,
  )} ${"p99 ms".padStart(7)} ${"max ms".padStart(7)} ${"5xx".padStart(5)} ${"no answer".padStart(9)}  4xx/5xx`;
  const lines = rows.map(
    (r) =>
      `${r.kind.padEnd(34)} ${String(r.answered).padStart(8)} ${r.perSecond.toFixed(1).padStart(7)} ${ms(r.p50)} ${ms(r.p95)} ${ms(r.p99)} ${ms(
        r.max,
      )} ${String(r.serverErrors).padStart(5)} ${String(r.connectionErrors).padStart(9)}  ${r.otherStatuses}`,
  );
  return [head, ...lines].join("\n");
}
