-- AlterEnum: .spz, .splat and .sog uploads (docs/decisions/025-more-splat-formats.md)
ALTER TYPE "ModelType" ADD VALUE 'spz';
ALTER TYPE "ModelType" ADD VALUE 'splat';
ALTER TYPE "ModelType" ADD VALUE 'sog';
