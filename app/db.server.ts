import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";
import { env } from "./env.server";

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { __scanroomDb?: PrismaClient; __scanroomDbUrl?: string };

function createClient(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 10 }) });
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
