import { defineConfig } from "@playwright/test";

// One built app and one browser for every journey (DESIGN §2: Debian's Chromium, WebGL via SwiftShader).
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  "--ignore-gpu-blocklist",
];

const PORT = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  // Its own folder per port: a second run on another E2E_PORT must not clear this one's traces.
  outputDir: PORT === 3100 ? "test-results" : `test-results-${PORT}`,
  use: {
    baseURL: `http://localhost:${PORT}`,
    viewport: { width: 1366, height: 900 },
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  webServer: {
    command: "npx tsx tests/e2e/server.ts",
    url: `http://localhost:${PORT}/v1/categories`,
    timeout: 180_000,
    reuseExistingServer: false,
    // SIGTERM lets tests/e2e/server.ts stop its Auth emulator and drop its database.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    stdout: "pipe",
    stderr: "pipe",
  },
});
