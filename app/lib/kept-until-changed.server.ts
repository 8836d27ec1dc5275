import { env } from "~/env.server";
import { ByteBudgetLru } from "./byte-budget-lru";
import { ChangeMarks } from "./change-marks";
import { sharedChangesHub, type SharedChangesHub } from "./shared-changes-hub.server";

/**
 * Records signed-out visitors read again and again (a public model's row for its page, embed, oEmbed answer and
 * every download), kept in the web process until PostgreSQL says what they show changed, and at most as long as the
 * pages that show them (`keptMs`; docs/decisions/066-public-item-records-kept-until-changed.md). Each read then costs
 * no query: under load, Prisma's compilation of a query into a plan was a fifth of a visitors' process's CPU.
 *
 * Kept only while every change is heard (`hub.live()`), and only a record read while no change to what it shows was
 * heard: a read that such a change overtook may hold what was there before. Changes to anything else do not count
 * (under the load bench's creators, one read in twelve overlapped one). Nothing is kept for a record that was not
 * found (a model published later makes no notice). Every reader gets a copy of its own.
 */
export interface KeptUntilChanged<T> {
  /** The record under `key`: kept, else `load`ed (and kept when it may be). */
  read(key: string, load: () => Promise<T | null>): Promise<T | null>;
  /** How many records are kept now. */
  readonly size: number;
}

export interface KeptUntilChangedOptions<T> {
  /** What the record under `key` shows, as changes name it ('item:<id>', 'user:<id>'): a change to any of them forgets it. */
  shows: (record: T, key: string) => string[];
  /** How many records are kept at most (5,000 unless told). */
  maxEntries?: number;
  /**
   * How long a record is kept at most: what changes without a notice (a view count) is this late at worst. Unless
   * told, as long as a shared page is kept (SHARED_PAGE_KEPT_SECONDS), so that a record is never older than the
   * pages showing it may be.
   */
  keptMs?: number;
  hub?: SharedChangesHub;
  now?: () => number;
}

export function keptUntilChanged<T>({ shows, maxEntries = 5_000, keptMs, hub = sharedChangesHub(), now = Date.now }: KeptUntilChangedOptions<T>): KeptUntilChanged<T> {
  // Read when a record is kept, not when the module loads: importing the domain needs no valid environment.
  const keptFor = () => keptMs ?? env().SHARED_PAGE_KEPT_SECONDS * 1000;
  // Each record weighs 1 and is only peeked at: the oldest goes first when maxEntries are kept. A change forgets
  // the records that show it without looking at the others.
  const kept = new ByteBudgetLru<{ record: T; shows: string[]; until: number }>(maxEntries, () => 1, (entry) => entry.shows);
  // Each change heard, by its number (`hub.heard()` counts it before listeners hear it).
  const changedAt = new ChangeMarks();
  hub.listen((what) => {
    changedAt.note(what, hub.heard());
    if (what === "all") kept.clear();
    else kept.deleteTagged(what);
  });
  return {
    get size() {
      return kept.bytes;
    },
    async read(key, load) {
      if (!hub.live()) return load();
      const entry = kept.peek(key);
      if (entry && now() < entry.until) return structuredClone(entry.record);
      if (entry) kept.delete(key);
      const heardBefore = hub.heard();
      const record = await load();
      if (record === null || !hub.live()) return record;
      const recordShows = shows(record, key);
      if (changedAt.changedAfter(recordShows, heardBefore)) return record;
      kept.set(key, { record: structuredClone(record), shows: recordShows, until: now() + keptFor() });
      return record;
    },
  };
}
