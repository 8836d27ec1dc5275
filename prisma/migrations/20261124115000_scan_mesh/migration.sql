-- A scan's textured mesh beside its splat (issue 14).
ALTER TABLE "Item" ADD COLUMN "meshKey" TEXT;
ALTER TABLE "Item" ADD COLUMN "meshSize" BIGINT;
ALTER TABLE "Item" ADD COLUMN "meshLiteKey" TEXT;
ALTER TABLE "Item" ADD COLUMN "meshLiteSize" BIGINT;
