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

/** A hub and its feed: what the one who hears the notices drives. */
export interface SharedChangesFeed extends SharedChangesHub {
  /** Says from now on whether every change is being heard. */
  setLive(live: () => boolean): void;
  /** Passes a change on to every listener ('all' when some may have been missed). */
  changed(shows: string): void;
}

/** A hub of its own (for tests); the process's is `sharedChangesHub()`. */
export function createSharedChangesHub(): SharedChangesFeed {
  let isLive = () => false;
  let count = 0;
  const listeners = new Set<(shows: string) => void>();
  return {
    live: () => isLive(),
    heard: () => count,
    listen(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    setLive(live) {
      isLive = live;
    },
    changed(shows) {
      count += 1;
      for (const listener of listeners) listener(shows);
    },
  };
}

const HUB = Symbol.for("scanroom.sharedChangesHub");

function hub(): SharedChangesFeed {
  const holder = globalThis as typeof globalThis & { [HUB]?: SharedChangesFeed };
  return (holder[HUB] ??= createSharedChangesHub());
}

/** The process's hub, for those who keep what the changes touch. */
export function sharedChangesHub(): SharedChangesHub {
  return hub();
}

/** For the one who hears the notices: says whether they are heard now (`live`), and passes each change on (`changed`; 'all' when some may have been missed). */
export function feedSharedChanges(live: () => boolean): Pick<SharedChangesFeed, "changed"> {
  const target = hub();
  target.setLive(live);
  return target;
}
