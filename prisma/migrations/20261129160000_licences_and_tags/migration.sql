-- A licence and tags per model (issue 35 items 3 and 4, docs/decisions/048-licences-and-tags.md).
-- Every existing model keeps what it had in effect: all rights reserved, no tags.
CREATE TYPE "License" AS ENUM ('all_rights_reserved', 'cc_by', 'cc_by_sa', 'cc_by_nc', 'cc0');

ALTER TABLE "Item" ADD COLUMN "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN "license" "License" NOT NULL DEFAULT 'all_rights_reserved';

-- Search asks "has this tag" (tags @> ARRAY[q]).
CREATE INDEX "Item_tags_idx" ON "Item" USING GIN ("tags");
