-- Scan workers report which scan tools they have (issue 17 item 1).
CREATE TABLE "ScanWorker" (
    "id" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "missingTools" TEXT[],
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reportedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScanWorker_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "ScanWorker_reportedAt_idx" ON "ScanWorker"("reportedAt");
