import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    teardownTimeout: 3_000,
    // Vitest's default (cores − 1) runs one file at a time on a 2-core runner, and integration files mostly wait
    // on PostgreSQL, the Auth emulator and child processes: run one, the CPUs were idle 36 % of the time; run
    // two, 6 %. Measured on 2 cores: integration 1,135 s → 732 s, unit 86 s → 54 s (each file has its own
    // database and storage folder, so files do not share state).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        plugins: [tsconfigPaths()],
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "app/**/*.test.tsx", "scripts/**/*.test.ts", "tests/setup/**/*.test.ts", "prisma/**/*.test.ts"],
          environment: "node",
          // A guard against a hang, not a speed limit: on a loaded 2-core machine a GLB simplified on the CPU took
          // 5.1 s, past vitest's 5 s default (a fresh clone's run, unit 115 s against 65 s the day before).
          testTimeout: 30_000,
        },
      },
      {
        plugins: [tsconfigPaths()],
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/global-setup.ts"],
          setupFiles: ["tests/setup/per-file-database.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          pool: "forks",
        },
      },
    ],
  },
});
