-- Saved versions of a splat item (the clean-up editor, issue 18 item 5, docs/decisions/027).
CREATE TABLE "ItemVersion" (
    "id" UUID NOT NULL,
    "itemId" UUID NOT NULL,
    "number" INTEGER,
    "label" TEXT NOT NULL,
    "fileKey" TEXT NOT NULL,
    "fileFormat" TEXT NOT NULL,
    "fileSize" BIGINT,
    "splatCount" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "committedAt" TIMESTAMP(3),

    CONSTRAINT "ItemVersion_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "ItemVersion_itemId_number_key" ON "ItemVersion"("itemId", "number");
CREATE INDEX "ItemVersion_itemId_createdAt_idx" ON "ItemVersion"("itemId", "createdAt");

ALTER TABLE "ItemVersion" ADD CONSTRAINT "ItemVersion_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "Item"("id") ON DELETE CASCADE ON UPDATE CASCADE;
