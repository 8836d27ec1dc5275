-- Admins feature models (issue 35 item 5, docs/decisions/049-featured-models.md). None is featured at first.
ALTER TABLE "Item" ADD COLUMN "featuredAt" TIMESTAMP(3);

CREATE INDEX "Item_featuredAt_id_idx" ON "Item"("featuredAt" DESC, "id");
