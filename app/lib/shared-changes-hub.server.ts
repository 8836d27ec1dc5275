/**
 * What PostgreSQL's change notices (app/lib/shared-page-changes.server.ts) say, for every part of a web process
 * that keeps what signed-out visitors see: the shared page cache and the public item records
 * (app/lib/kept-until-changed.server.ts, docs/decisions/066-public-item-records-kept-until-changed.md).
 *
 * The server (server.ts, run from source) hears the notices; the domain code that keeps records runs from the
 * built bundle, a second copy of this module. So the hub lives on `globalThis` under a registered symbol: both
 * copies reach the same one.
 */
export interface SharedChangesHub {
  /** Whether every change is being heard now; nothing is kept on trust while it is not. */
  live(): boolean;
  /** How many changes have been heard: a read that saw this number move while it ran may hold what was there before. */
  heard(): number;
  /** Calls `listener` with each change heard ('item:<id>', 'user:<id>', 'all'); returns how to stop. */
  listen(listener: (shows: string) => void): () => void;
}

interface Hub extends SharedChangesHub {
  isLive: () => boolean;
  count: number;
  listeners: Set<(shows: string) => void>;
}

const HUB = Symbol.for("scanroom.sharedChangesHub");

function hub(): Hub {
  const holder = globalThis as typeof globalThis & { [HUB]?: Hub };
  holder[HUB] ??= {
    isLive: () => false,
    count: 0,
    listeners: new Set(),
    live() {
      return this.isLive();
    },
    heard() {
      return this.count;
    },
    listen(listener) {
      this.listeners.add(listener);
      return () => void this.listeners.delete(listener);
    },
  };
  return holder[HUB];
}

/** The process's hub, for those who keep what the changes touch. */
export function sharedChangesHub(): SharedChangesHub {
  return hub();
}

/** For the one who hears the notices: says whether they are heard now (`live`), and passes each change on (`changed`; 'all' when some may have been missed). */
export function feedSharedChanges(live: () => boolean): { changed: (shows: string) => void } {
  const target = hub();
  target.isLive = live;
  return {
    changed(shows) {
      target.count += 1;
      for (const listener of target.listeners) listener(shows);
    },
  };
}
