-- AlterEnum: a Builder scene is a draft until its first save (issue 35 item 8, docs/decisions/046-draft-scenes.md).
-- Scenes made before this stay `ready`: they were listed and may have been shared.
ALTER TYPE "ItemStatus" ADD VALUE 'draft' BEFORE 'uploading';
