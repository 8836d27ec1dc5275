-- A turntable video per model, rendered on request (issue 35 item 2, docs/decisions/051-turntables.md).
ALTER TABLE "Item" ADD COLUMN "turntableKey" TEXT,
ADD COLUMN "turntableSourceKey" TEXT,
ADD COLUMN "turntableState" TEXT,
ADD COLUMN "turntableError" TEXT;
