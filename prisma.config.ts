import { defineConfig } from "prisma/config";
import { createMigrateAdapter } from "./prisma/migrate-adapter";

// Prisma 6.19 offline: the JS engine and a driver adapter, so no engine binary is downloaded (DESIGN §2).
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  async adapter() {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: prisma needs a database for this command");
    return createMigrateAdapter(url);
  },
});
