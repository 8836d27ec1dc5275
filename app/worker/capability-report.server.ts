import { randomUUID } from "node:crypto";
import os from "node:os";
import { db } from "~/db.server";
import type { MissingTool } from "~/tools/scan-tools.server";

/**
 * This worker's report to the database of which scan tools it lacks (a ScanWorker row), read by the
 * web process to tell users whether scans are available (app/domain/scan-availability.server.ts).
 */
export class CapabilityReport {
  readonly id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  async report(missing: MissingTool[]): Promise<void> {
    const missingTools = missing.map((tool) => tool.name);
    await db().scanWorker.upsert({
      where: { id: this.id },
      create: { id: this.id, hostname: os.hostname(), missingTools },
      update: { missingTools, reportedAt: new Date() },
    });
    // Rows of workers gone for a day are of no use to anyone.
    await db().scanWorker.deleteMany({ where: { reportedAt: { lt: new Date(Date.now() - 24 * 60 * 60 * 1000) } } });
  }

  /** A stopping worker withdraws its report at once. */
  async withdraw(): Promise<void> {
    await db().scanWorker.deleteMany({ where: { id: this.id } });
  }
}
