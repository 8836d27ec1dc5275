-- Issue 6, embeds and sharing: viewer settings carry the schema version they were written with (migrated on
-- read), registered embeds and share links count their loads and opens, share links get an optional label.

-- AlterTable
ALTER TABLE "Item" ADD COLUMN     "settingsVersion" INTEGER;

-- AlterTable
ALTER TABLE "Embed" ADD COLUMN     "lastLoadedAt" TIMESTAMP(3),
ADD COLUMN     "loadCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "ShareLink" ADD COLUMN     "label" TEXT,
ADD COLUMN     "lastOpenedAt" TIMESTAMP(3),
ADD COLUMN     "openCount" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Embed_ownerId_revokedAt_createdAt_idx" ON "Embed"("ownerId", "revokedAt", "createdAt");
