import pg from "pg";

/**
 * What PostgreSQL says changed on the pages signed-out visitors share (docs/decisions/057-shared-pages-kept-until-changed.md):
 * the database's triggers notify `scanroom_shared_pages` with 'item:<id>', 'user:<id>' or 'all' in the very
 * transaction that changes what a model page, embed or oEmbed answer shows (prisma/migrations/…_shared_page_changes).
 * One connection per web process LISTENs; while it is down (`live` false) nothing is known to be unchanged, so
 * the cache keeps pages only for their s-maxage, and once it is back everything kept before is forgotten (a
 * change may have been missed in between).
 */
export const SHARED_PAGES_CHANNEL = "scanroom_shared_pages";
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;

export interface SharedPageChanges {
  /** Whether every change is being heard now. */
  readonly live: boolean;
  stop(): Promise<void>;
}

export interface SharedPageChangeHandlers {
  /** A page showing this ('item:<id>', 'user:<id>') changed; 'all': every page may have. */
  onChange: (shows: string) => void;
  /** Changes may have been missed (the connection was lost, or is new): forget what was kept on trust. */
  onUnheard: () => void;
}

export function listenForSharedPageChanges(connectionString: string, { onChange, onUnheard }: SharedPageChangeHandlers): SharedPageChanges {
  let client: pg.Client | null = null;
  let live = false;
  let stopped = false;
  let retryMs = FIRST_RETRY_MS;
  let retry: NodeJS.Timeout | null = null;

  const lost = (failed: pg.Client) => {
    if (client !== failed) return;
    client = null;
    live = false;
    onUnheard();
    failed.removeAllListeners("notification");
    failed.end().catch(() => {});
    if (stopped) return;
    retry = setTimeout(connect, retryMs);
    retry.unref();
    retryMs = Math.min(LAST_RETRY_MS, retryMs * 2);
  };

  async function connect() {
    retry = null;
    const next = new pg.Client({ connectionString, keepAlive: true });
    client = next;
    next.on("error", () => lost(next));
    next.on("end", () => lost(next));
    next.on("notification", (message) => {
      if (message.channel === SHARED_PAGES_CHANNEL && message.payload) onChange(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${SHARED_PAGES_CHANNEL}`);
    } catch {
      lost(next);
      return;
    }
    if (client !== next || stopped) return;
    // Heard from here on; anything kept while nobody listened is forgotten.
    onUnheard();
    live = true;
    retryMs = FIRST_RETRY_MS;
  }

  void connect();
  return {
    get live() {
      return live;
    },
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      live = false;
      await current?.end().catch(() => {});
    },
  };
}
