/**
 * The driver adapter that `prisma migrate` uses (prisma.config.ts only; the app uses app/db.server.ts).
 * It works around two upstream bugs of @prisma/adapter-pg 6.19 with the JS engine (DESIGN §2,
 * docs/decisions/001-prisma-6-js-engine.md):
 * - prisma/orm#27403: the adapter cannot map PostgreSQL's `name` (OID 19) and `"char"` (OID 18)
 *   catalog types, which the schema engine reads while describing a database. We report them as text.
 * - a factory built from a connection string makes the shadow database the main one, because the
 *   shadow config spreads `{ ...config, database }` and the connection string wins. We build the
 *   factory from discrete fields instead.
 * - executeScript splits a migration at every semicolon, cutting a trigger function's `$$ … $$` body
 *   apart. We split at the semicolons that end statements (prisma/sql-statements.ts).
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { sqlStatements } from "./sql-statements";

const PG_TEXT = 25;
const CATALOG_TEXT_TYPES = new Set([18, 19]);

type Field = { dataTypeID: number };
type Performer = { performIO: (query: unknown) => Promise<{ fields: Field[] }> };
type ScriptRunner = {
  executeScript?: (script: string) => Promise<void>;
  client?: { query: (sql: string) => Promise<unknown> };
  onError?: (error: unknown) => never;
};

/** The adapter's executeScript, one whole statement at a time, as it runs them (its client, its error mapping). */
function runScriptsByStatement<T extends object>(adapter: T): T {
  const target = adapter as unknown as ScriptRunner;
  const { client, onError } = target;
  if (typeof target.executeScript !== "function" || !client || typeof onError !== "function") return adapter;
  target.executeScript = async (script: string) => {
    for (const statement of sqlStatements(script)) {
      try {
        await client.query(statement);
      } catch (error) {
        onError.call(target, error);
      }
    }
  };
  return adapter;
}

function reportCatalogTypesAsText<T extends object>(queryable: T): T {
  const target = queryable as unknown as Performer & {
    startTransaction?: (...args: unknown[]) => Promise<object>;
  };
  const performIO = target.performIO.bind(target);
  target.performIO = async (query) => {
    const result = await performIO(query);
    for (const field of result.fields) {
      if (CATALOG_TEXT_TYPES.has(field.dataTypeID)) field.dataTypeID = PG_TEXT;
    }
    return result;
  };
  if (typeof target.startTransaction === "function") {
    const start = target.startTransaction.bind(target);
    target.startTransaction = async (...args) => reportCatalogTypesAsText(await start(...args));
  }
  return queryable;
}

export function connectionFieldsFromUrl(databaseUrl: string) {
  const url = new URL(databaseUrl);
  return {
    host: decodeURIComponent(url.hostname) || "127.0.0.1",
    port: url.port ? Number(url.port) : 5432,
    user: decodeURIComponent(url.username) || "postgres",
    password: decodeURIComponent(url.password) || undefined,
    database: decodeURIComponent(url.pathname.replace(/^\//, "")) || "postgres",
  };
}

export function createMigrateAdapter(databaseUrl: string) {
  const factory = new PrismaPg(connectionFieldsFromUrl(databaseUrl));
  const connect = factory.connect.bind(factory);
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  factory.connect = async () => runScriptsByStatement(reportCatalogTypesAsText(await connect()));
  factory.connectToShadowDb = async () => runScriptsByStatement(reportCatalogTypesAsText(await connectToShadowDb()));
  return factory;
}
