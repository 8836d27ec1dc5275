/**
 * The driver adapter that `prisma migrate` uses (prisma.config.ts only; the app uses app/db.server.ts).
 * It works around two upstream bugs of @prisma/adapter-pg 6.19 with the JS engine (DESIGN §2,
 * docs/decisions/001-prisma-6-js-engine.md):
 * - prisma/orm#27403: the adapter cannot map PostgreSQL's `name` (OID 19) and `"char"` (OID 18)
 *   catalog types, which the schema engine reads while describing a database. We report them as text.
 * - a factory built from a connection string makes the shadow database the main one, because the
 *   shadow config spreads `{ ...config, database }` and the connection string wins. We build the
 *   factory from discrete fields instead.
 */
import { PrismaPg } from "@prisma/adapter-pg";

const PG_TEXT = 25;
const CATALOG_TEXT_TYPES = new Set([18, 19]);

type Field = { dataTypeID: number };
type Performer = { performIO: (query: unknown) => Promise<{ fields: Field[] }> };

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
  factory.connect = async () => reportCatalogTypesAsText(await connect());
  factory.connectToShadowDb = async () => reportCatalogTypesAsText(await connectToShadowDb());
  return factory;
}
