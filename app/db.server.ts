import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";
import { env } from "./env.server";

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { __scanroomDb?: PrismaClient; __scanroomDbUrl?: string };

/**
 * Every transaction waits up to 15 s for one of the pool's 10 connections and may run 30 s. Prisma's own
 * defaults (2 s, 5 s) turned a busy minute into 500s: under `npm run bench load` on S3, 4 uploads' completions
 * failed with "Unable to start a transaction in the given time" while the pool was busy (issue 37).
 */
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 };

function createClient(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 10 }), transactionOptions: TRANSACTION_OPTIONS });
}

/** The one Prisma client of this process (kept across dev-server reloads). */
export function db(): PrismaClient {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the product with `npm start`");
  if (!globalForDb.__scanroomDb || globalForDb.__scanroomDbUrl !== url) {
    globalForDb.__scanroomDb = createClient(url);
    globalForDb.__scanroomDbUrl = url;
  }
  return globalForDb.__scanroomDb;
}

export async function disconnectDb() {
  await globalForDb.__scanroomDb?.$disconnect();
  globalForDb.__scanroomDb = undefined;
}

export { Prisma } from "./generated/prisma/client";
export type * from "./generated/prisma/client";
