/** Where the test suite's services live. Tests never touch the `npm start` data under .data/. */
export const TEST_PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
export const TEMPLATE_DATABASE = process.env.TEST_TEMPLATE_DATABASE ?? "scanroom_test_template";
export const EMULATOR_PORT = Number(process.env.TEST_AUTH_EMULATOR_PORT ?? 9199);
export const EMULATOR_HOST = `127.0.0.1:${EMULATOR_PORT}`;
export const FIREBASE_PROJECT_ID = "demo-scanroom-test";
export const XOR_KEY = "test-xor-key";

export function databaseUrl(name: string): string {
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
