// What every bench needs besides the app: printing a line, and running SQL as the test PostgreSQL's admin.
import pg from "pg";
import { TEMPLATE_DATABASE, TEST_PG_ADMIN_URL } from "../tests/setup/config";

export function print(line = ""): void {
  process.stdout.write(`${line}\n`);
}

/** Runs one statement on the admin connection (CREATE/DROP DATABASE, catalogue lookups). */
export async function adminQuery(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/** Whether the tests' migrated template database exists (benches clone it instead of migrating). */
export async function templateExists(): Promise<boolean> {
  return (await adminQuery("SELECT 1 FROM pg_database WHERE datname = $1", [TEMPLATE_DATABASE])).rowCount === 1;
}
