import { describe, expect, it } from "vitest";
import { createSharedChangesHub } from "~/lib/shared-changes-hub.server";
import { publicObjectStats } from "./public-object-stats.server";

/** A store whose objects the test sets and whose stat requests it counts, and a hub the test drives. */
function harness({ live = true } = {}) {
  const objects = new Map<string, { size: number; etag: string }>();
  const asked: string[] = [];
  const hub = createSharedChangesHub();
  hub.setLive(() => live);
  const store = {
    stat: async (key: string) => {
      asked.push(key);
      const object = objects.get(key);
      return object ? { ...object, modifiedAt: new Date(0) } : null;
    },
  };
  const stats = publicObjectStats({ store: () => store, hub, keptMs: 60_000 });
  return { objects, asked, hub, stats };
}

const KEY = "items/item-1/delivery/abc.ksplat";

describe("publicObjectStats", () => {
  it("asks the store once for a signed-out reader's object, and again after its item changes", async () => {
    const { objects, asked, hub, stats } = harness();
    objects.set(KEY, { size: 1000, etag: '"e1"' });
    expect(await stats.stat(KEY, { signedOutReader: true })).toEqual({ size: 1000, etag: '"e1"' });
    expect(await stats.stat(KEY, { signedOutReader: true })).toEqual({ size: 1000, etag: '"e1"' });
    expect(asked).toEqual([KEY]);

    objects.set(KEY, { size: 2000, etag: '"e2"' });
    hub.changed("item:other-item");
    expect(await stats.stat(KEY, { signedOutReader: true })).toEqual({ size: 1000, etag: '"e1"' });
    hub.changed("item:item-1");
    expect(await stats.stat(KEY, { signedOutReader: true })).toEqual({ size: 2000, etag: '"e2"' });
    expect(asked).toEqual([KEY, KEY]);
  });

  it("always asks the store for a signed-in reader, a missing object, a key outside items, or while changes are not heard", async () => {
    const { objects, asked, stats } = harness();
    objects.set(KEY, { size: 1000, etag: '"e1"' });
    await stats.stat(KEY, { signedOutReader: false });
    await stats.stat(KEY, { signedOutReader: false });
    expect(asked).toEqual([KEY, KEY]);

    const missing = "items/item-1/model/gone.glb";
    expect(await stats.stat(missing, { signedOutReader: true })).toBeNull();
    objects.set(missing, { size: 5, etag: '"m"' });
    expect(await stats.stat(missing, { signedOutReader: true })).toEqual({ size: 5, etag: '"m"' });

    const outside = "users/u1/avatar/a";
    objects.set(outside, { size: 7, etag: '"a"' });
    await stats.stat(outside, { signedOutReader: true });
    await stats.stat(outside, { signedOutReader: true });
    expect(asked.filter((key) => key === outside)).toHaveLength(2);

    const deaf = harness({ live: false });
    deaf.objects.set(KEY, { size: 1, etag: '"d"' });
    await deaf.stats.stat(KEY, { signedOutReader: true });
    await deaf.stats.stat(KEY, { signedOutReader: true });
    expect(deaf.asked).toEqual([KEY, KEY]);
  });
});
