import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { waitFor } from "../setup/wait-for";

/**
 * The after-commit outbox (issue 39, docs/decisions/043): follow-ups the domain records reach the job queue
 * only when their transaction commits, exactly once per row, whichever relay takes them. The follow-ups here
 * are scan jobs: handing one over only queues it (no consumer runs in this file), and its queue job's id is
 * the scan's, so what reached the queue is read back by id.
 */
async function modules() {
  const { db } = await import("~/db.server");
  const outbox = await import("~/domain/outbox.server");
  const relay = await import("~/jobs/outbox-relay.server");
  const { queue, SCAN_QUEUE } = await import("~/jobs/queue.server");
  return { db: db(), ...outbox, ...relay, queue, SCAN_QUEUE };
}

async function queuedScanJobs(ids: string[]): Promise<string[]> {
  const { db } = await modules();
  const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(`SELECT id::text FROM pgboss.job WHERE name = 'scan' AND id = ANY($1::uuid[])`, ids);
  return rows.map((row) => row.id).sort();
}

afterAll(async () => {
  const { stopOutboxRelay } = await modules();
  await stopOutboxRelay();
});

describe("the outbox", () => {
  it("hands a committed follow-up to the queue once, and one whose transaction rolled back never", async () => {
    const { db, recordFollowUps, relayFollowUps, queue } = await modules();
    await queue(); // the queue's schema, before anything is handed over
    const committed = randomUUID();
    const rolledBack = randomUUID();
    await db.$transaction((tx) => recordFollowUps(tx, [{ kind: "scan", scanJobId: committed }]));
    await expect(
      db.$transaction(async (tx) => {
        await recordFollowUps(tx, [{ kind: "scan", scanJobId: rolledBack }]);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await db.outboxMessage.count()).toBe(1);
    expect(await queuedScanJobs([committed, rolledBack])).toEqual([]);

    expect(await relayFollowUps()).toBe(1);
    expect(await queuedScanJobs([committed, rolledBack])).toEqual([committed]);
    expect(await db.outboxMessage.count()).toBe(0);
    // Nothing is left to hand over a second time.
    expect(await relayFollowUps()).toBe(0);
  });

  it("never hands one row over twice when two relays drain at once, and drops a row that does not parse without holding up the rest", async () => {
    const { db, recordFollowUps, relayFollowUps } = await modules();
    const ids = Array.from({ length: 120 }, () => randomUUID());
    await db.$transaction((tx) => recordFollowUps(tx, ids.slice(0, 60).map((scanJobId) => ({ kind: "scan" as const, scanJobId }))));
    // Written by a version that knew another kind: nothing can hand it over.
    await db.outboxMessage.create({ data: { kind: "teleport", payload: { to: "mars" } } });
    await db.$transaction((tx) => recordFollowUps(tx, ids.slice(60).map((scanJobId) => ({ kind: "scan" as const, scanJobId }))));

    const [first, second] = await Promise.all([relayFollowUps(), relayFollowUps()]);
    console.warn(`[outbox] two relays at once handed over ${first} and ${second} of ${ids.length} follow-ups`);
    expect(first + second).toBe(ids.length);
    expect(await queuedScanJobs(ids)).toEqual([...ids].sort());
    expect(await db.outboxMessage.count()).toBe(0);
  });

  it("refuses a follow-up the domain does not know, before anything is written", async () => {
    const { db, recordFollowUps } = await modules();
    await expect(db.$transaction((tx) => recordFollowUps(tx, [{ kind: "scan", scanJobId: "not-a-uuid" }]))).rejects.toThrow();
    expect(await db.outboxMessage.count()).toBe(0);
  });

  it("is handed over at once after a commit in this process, without waiting for the relay's sweep", async () => {
    const { requestFollowUps, startOutboxRelay } = await modules();
    // A sweep far beyond the test's patience: only the commit's wake-up can hand it over in time.
    startOutboxRelay(10 * 60_000);
    const id = randomUUID();
    await requestFollowUps([{ kind: "scan", scanJobId: id }]);
    expect(await waitFor("the follow-up in the queue", async () => ((await queuedScanJobs([id])).length === 1 ? true : null), 10_000)).toBe(true);
  });
});
