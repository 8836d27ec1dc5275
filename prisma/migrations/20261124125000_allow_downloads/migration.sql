-- Owners choose whether others may download a model's files (issue 18 item 1), off by default.
ALTER TABLE "Item" ADD COLUMN "allowDownloads" BOOLEAN NOT NULL DEFAULT false;
