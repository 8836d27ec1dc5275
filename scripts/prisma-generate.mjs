// `prisma generate` offline: Prisma 6.19 reads prisma.config.ts (JS engine) only when DATABASE_URL
// is set; without it the CLI tries to download an engine (DESIGN §2). Generating needs no database,
// so a placeholder URL is enough when none is configured.
import { spawnSync } from "node:child_process";

const env = { ...process.env, DATABASE_URL: process.env.DATABASE_URL || "postgresql://localhost:5432/unused" };
const result = spawnSync("npx", ["prisma", "generate", "--no-hints"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
