-- The Builder (issue 6): scenes are items of their own, made of the owner's models placed in them.
CREATE TYPE "ItemKind" AS ENUM ('model', 'scene');

ALTER TABLE "Item" ADD COLUMN "kind" "ItemKind" NOT NULL DEFAULT 'model';

CREATE TABLE "SceneNode" (
    "id" UUID NOT NULL,
    "sceneId" UUID NOT NULL,
    "sourceItemId" UUID NOT NULL,
    "sortOrder" INTEGER NOT NULL DEFAULT 0,
    "position" DOUBLE PRECISION[],
    "quaternion" DOUBLE PRECISION[],
    "scale" DOUBLE PRECISION[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SceneNode_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "SceneNode_sceneId_sortOrder_idx" ON "SceneNode"("sceneId", "sortOrder");
CREATE INDEX "SceneNode_sourceItemId_idx" ON "SceneNode"("sourceItemId");

ALTER TABLE "SceneNode" ADD CONSTRAINT "SceneNode_sceneId_fkey" FOREIGN KEY ("sceneId") REFERENCES "Item"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "SceneNode" ADD CONSTRAINT "SceneNode_sourceItemId_fkey" FOREIGN KEY ("sourceItemId") REFERENCES "Item"("id") ON DELETE CASCADE ON UPDATE CASCADE;
