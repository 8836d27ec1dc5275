/** Where the test suite's services live. Tests never touch the `npm start` data under .data/. */
export const TEST_PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
export const TEMPLATE_DATABASE = process.env.TEST_TEMPLATE_DATABASE ?? "scanroom_test_template";
export const EMULATOR_PORT = Number(process.env.TEST_AUTH_EMULATOR_PORT ?? 9199);
export const EMULATOR_HOST = `127.0.0.1:${EMULATOR_PORT}`;
/** The test S3 server's port; 0 picks a free one. */
export const S3_PORT = Number(process.env.TEST_S3_PORT ?? 0);
export const FIREBASE_PROJECT_ID = "demo-scanroom-test";
export const XOR_KEY = "test-xor-key";

export function databaseUrl(name: string): string {
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Where the run's S3 server is (set by the global setup) and the key that signs for it. */
export function s3TestConfig() {
  const endpoint = process.env.TEST_S3_ENDPOINT;
  if (!endpoint) throw new Error("No test S3 server: run integration tests through vitest's integration project.");
  return {
    endpoint,
    bucket: process.env.TEST_S3_BUCKET!,
    accessKeyId: process.env.TEST_S3_ACCESS_KEY_ID!,
    secretAccessKey: process.env.TEST_S3_SECRET_ACCESS_KEY!,
    region: "us-east-1",
    forcePathStyle: true,
  };
}

/** The app's environment for STORAGE_DRIVER=s3 against the run's S3 server. */
export function s3AppEnv(): Record<string, string> {
  const s3 = s3TestConfig();
  return {
    STORAGE_DRIVER: "s3",
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: "true",
  };
}
