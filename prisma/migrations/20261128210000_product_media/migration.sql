-- The product's own 3D media that Scanroom adds (issue 40, decision 044).
ALTER TABLE "ProductModelLink" ADD COLUMN "addToMedia" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "ProductMedia" (
    "id" UUID NOT NULL,
    "shopId" UUID NOT NULL,
    "productGid" TEXT NOT NULL,
    "itemId" UUID NOT NULL,
    "sourceKey" TEXT NOT NULL,
    "alt" TEXT NOT NULL DEFAULT '',
    "mediaGid" TEXT,
    "retiredMediaGids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" TEXT NOT NULL,
    "error" TEXT,
    "glbBytes" INTEGER,
    "triangles" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProductMedia_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "ProductMedia_shopId_productGid_itemId_key" ON "ProductMedia"("shopId", "productGid", "itemId");

ALTER TABLE "ProductMedia" ADD CONSTRAINT "ProductMedia_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;
