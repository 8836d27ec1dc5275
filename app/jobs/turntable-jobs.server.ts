import type PgBoss from "pg-boss";
import { createItemTurntable } from "~/domain/item-turntables.server";
import { consumeQueue, queue, TURNTABLE_QUEUE, turntableJobPayloadSchema, type TurntableJobPayload } from "./queue.server";

/**
 * Turntable jobs (app/domain/item-turntables.server.ts), worked like the thumbnail jobs: the process that queues one
 * starts consuming the queue on first use. The render runs in its own process, so this one keeps answering.
 */
export function startTurntableWorker(boss?: PgBoss): Promise<void> {
  return consumeQueue(TURNTABLE_QUEUE, (data) => createItemTurntable(turntableJobPayloadSchema.parse(data)), boss);
}

export async function enqueueTurntableJob(input: TurntableJobPayload): Promise<void> {
  const boss = await queue();
  await boss.send(TURNTABLE_QUEUE, turntableJobPayloadSchema.parse(input));
  await startTurntableWorker(boss);
}
