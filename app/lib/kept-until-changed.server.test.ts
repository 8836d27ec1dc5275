import { describe, expect, it } from "vitest";
import { env } from "~/env.server";
import { keptUntilChanged } from "./kept-until-changed.server";
import { createSharedChangesHub } from "./shared-changes-hub.server";

interface Row {
  id: string;
  ownerId: string;
  name: string;
  createdAt: Date;
}

/** A hub driven by the test, a clock, and a table whose reads are counted (and may be held). */
function harness({ maxEntries = 100, keptMs = 60_000 as number | null } = {}) {
  let live = true;
  const hub = createSharedChangesHub();
  hub.setLive(() => live);
  const change = (shows: string) => hub.changed(shows);
  let clock = 1_000;
  const table = new Map<string, Row>();
  let reads = 0;
  let hold: Promise<void> | null = null;
  const kept = keptUntilChanged<Row>({ shows: (row) => [`item:${row.id}`, `user:${row.ownerId}`], maxEntries, keptMs: keptMs ?? undefined, hub, now: () => clock });
  const read = (id: string) =>
    kept.read(id, async () => {
      reads += 1;
      const row = table.get(id) ?? null;
      if (hold) await hold;
      return row ? structuredClone(row) : null;
    });
  return {
    kept,
    read,
    table,
    change,
    reads: () => reads,
    setLive: (value: boolean) => void (live = value),
    advance: (ms: number) => void (clock += ms),
    holdReads: () => {
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      return () => ((hold = null), release());
    },
  };
}

const row = (id: string, ownerId = "u1", name = id): Row => ({ id, ownerId, name, createdAt: new Date(0) });

describe("records kept until what they show changes", () => {
  it("reads a record once, and gives each reader a copy of its own", async () => {
    const h = harness();
    h.table.set("a", row("a"));
    const first = await h.read("a");
    first!.name = "changed by a reader";
    const second = await h.read("a");
    expect(second).toEqual(row("a"));
    expect(second!.createdAt).toBeInstanceOf(Date);
    expect(h.reads()).toBe(1);
  });

  it("forgets a record when a change names it or its owner, and everything on 'all'", async () => {
    const h = harness();
    for (const [id, owner] of [["a", "u1"], ["b", "u1"], ["c", "u2"]]) h.table.set(id, row(id, owner));
    for (const id of ["a", "b", "c"]) await h.read(id);
    h.table.set("a", row("a", "u1", "renamed"));
    h.change("item:a");
    expect((await h.read("a"))!.name).toBe("renamed");
    expect(h.reads()).toBe(4);
    h.change("user:u1");
    await h.read("b");
    await h.read("c");
    expect(h.reads()).toBe(5);
    h.change("all");
    await h.read("c");
    expect(h.reads()).toBe(6);
  });

  it("does not keep a read that a change overtook", async () => {
    const h = harness();
    h.table.set("a", row("a"));
    const release = h.holdReads();
    const pending = h.read("a");
    h.table.set("a", row("a", "u1", "renamed"));
    h.change("item:a");
    release();
    expect((await pending)!.name).toBe("a");
    expect((await h.read("a"))!.name).toBe("renamed");
    expect((await h.read("a"))!.name).toBe("renamed");
    expect(h.reads()).toBe(2);
  });

  it("keeps a read that only changes to other things overtook, and not one that its owner's change or 'all' overtook", async () => {
    const h = harness();
    for (const id of ["a", "b", "c"]) h.table.set(id, row(id));
    const overtaken = async (id: string, ...changes: string[]) => {
      const release = h.holdReads();
      const pending = h.read(id);
      for (const change of changes) h.change(change);
      release();
      await pending;
      await h.read(id);
    };
    await overtaken("a", "item:b", "user:u2");
    expect(h.reads()).toBe(1);
    await overtaken("b", "user:u1");
    expect(h.reads()).toBe(3);
    await overtaken("c", "all");
    expect(h.reads()).toBe(5);
  });

  it("keeps nothing while changes go unheard, nor a record not found", async () => {
    const h = harness();
    h.setLive(false);
    h.table.set("a", row("a"));
    await h.read("a");
    await h.read("a");
    expect(h.reads()).toBe(2);
    h.setLive(true);
    expect(await h.read("missing")).toBeNull();
    h.table.set("missing", row("missing"));
    expect(await h.read("missing")).toEqual(row("missing"));
    expect(h.reads()).toBe(4);
  });

  it("reads a record again after keptMs, and keeps at most maxEntries, forgetting the oldest", async () => {
    const h = harness({ maxEntries: 2, keptMs: 1_000 });
    for (const id of ["a", "b", "c"]) h.table.set(id, row(id));
    await h.read("a");
    h.advance(1_000);
    await h.read("a");
    expect(h.reads()).toBe(2);
    await h.read("b");
    await h.read("c");
    expect(h.kept.size).toBe(2);
    await h.read("b");
    expect(h.reads()).toBe(4);
    await h.read("a");
    expect(h.reads()).toBe(5);
  });

  it("keeps a record as long as a shared page is kept (SHARED_PAGE_KEPT_SECONDS) unless told otherwise", async () => {
    const pageKeptMs = env().SHARED_PAGE_KEPT_SECONDS * 1000;
    expect(pageKeptMs).toBeGreaterThan(60_000);
    const h = harness({ keptMs: null });
    h.table.set("a", row("a"));
    await h.read("a");
    h.advance(pageKeptMs - 1);
    await h.read("a");
    expect(h.reads()).toBe(1);
    h.advance(1);
    await h.read("a");
    expect(h.reads()).toBe(2);
  });
});
