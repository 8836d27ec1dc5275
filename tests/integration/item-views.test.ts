import { describe, expect, it } from "vitest";
import { addItemViews } from "~/domain/item-views.server";

// Views of model pages are added once a second per web process (decision 045). Several processes add views to
// the same popular items at once; none of them may deadlock another and lose its views (issue 37's load bench:
// PostgreSQL 40P01 between the two web processes, 21 items' views lost).

async function db() {
  return (await import("~/db.server")).db();
}

async function itemsOf(visibility: "public" | "unlisted" | "private", count: number, ownerId: string) {
  const client = await db();
  const ids = Array.from({ length: count }, () => crypto.randomUUID());
  await client.item.createMany({
    data: ids.map((id, n) => ({ id, ownerId, name: `Viewed ${visibility} ${n}`, modelType: "glb" as const, uploadType: "model" as const, status: "ready" as const, visibility })),
  });
  return ids;
}

/** The ids in a random order (Fisher–Yates). */
function shuffled(ids: string[]): string[] {
  const out = [...ids];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe("adding item views", () => {
  it("adds every view when eight processes' flushes over the same items, each in its own order, run at once", async () => {
    const client = await db();
    const owner = await client.user.create({ data: { firebaseUid: `item-views-${crypto.randomUUID()}` } });
    const shown = [...(await itemsOf("public", 150, owner.id)), ...(await itemsOf("unlisted", 50, owner.id))];
    const hidden = await itemsOf("private", 20, owner.id);
    const ROUNDS = 6;
    const FLUSHES = 8;
    const expected = new Map(shown.map((id) => [id, 0]));
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const flushes = Array.from({ length: FLUSHES }, (_, f) => {
        // Each flush has its own order of the same items (and the private ones, which must stay at 0).
        const views = new Map(shuffled([...shown, ...hidden]).map((id, n) => [id, 1 + ((n + f) % 3)]));
        for (const id of shown) expected.set(id, expected.get(id)! + views.get(id)!);
        return addItemViews(views).catch((error: Error) => failures.push(error.message.split("\n").filter(Boolean).pop() ?? error.message));
      });
      await Promise.all(flushes);
    }
    expect(failures).toEqual([]);
    const rows = await client.item.findMany({ where: { id: { in: [...shown, ...hidden] } }, select: { id: true, viewCount: true } });
    const counted = new Map(rows.map((row) => [row.id, row.viewCount]));
    for (const id of shown) expect(counted.get(id), id).toBe(expected.get(id));
    for (const id of hidden) expect(counted.get(id), id).toBe(0);
  });
});
