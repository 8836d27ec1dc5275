-- A compact delivery copy (.sog) of an item's splat, served to viewers (issue 6 "Delivery").
ALTER TABLE "Item" ADD COLUMN "deliveryKey" TEXT,
ADD COLUMN "deliverySize" BIGINT,
ADD COLUMN "deliveryFormat" TEXT,
ADD COLUMN "deliverySourceKey" TEXT;
