import { ensureAuthEmulator, prepareTemplateDatabase } from "./services";

// Integration tests: one migrated template database and one Auth emulator for the whole run.
export default async function globalSetup() {
  if (process.env.SCANROOM_TEMPLATE_READY !== "1") await prepareTemplateDatabase();
  const stopEmulator = await ensureAuthEmulator();
  return async () => {
    await stopEmulator();
  };
}
