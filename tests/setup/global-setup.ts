import { ensureAuthEmulator, ensureS3Server, prepareTemplateDatabase } from "./services";

// Integration tests: one migrated template database, one Auth emulator and one S3 server for the whole run.
export default async function globalSetup() {
  if (process.env.SCANROOM_TEMPLATE_READY !== "1") await prepareTemplateDatabase();
  const stopEmulator = await ensureAuthEmulator();
  const stopS3 = await ensureS3Server();
  return async () => {
    await stopS3();
    await stopEmulator();
  };
}
