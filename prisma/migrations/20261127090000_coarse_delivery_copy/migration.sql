-- A splat's coarse copy (~a tenth of its splats, no spherical harmonics) that viewers show before its delivery copy (issue 20).
ALTER TABLE "Item" ADD COLUMN "deliveryCoarseKey" TEXT;
ALTER TABLE "Item" ADD COLUMN "deliveryCoarseSize" BIGINT;
