// Seeds plans, credit packages and categories. Idempotent: safe to run on every start.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../app/generated/prisma/client";
import { CATEGORIES, CREDIT_PACKAGES, PLANS } from "./seed-data";

export async function seedDatabase(prisma: PrismaClient) {
  for (const plan of PLANS) {
    await prisma.plan.upsert({ where: { planType: plan.planType }, create: { ...plan }, update: {} });
  }
  for (const pkg of CREDIT_PACKAGES) {
    await prisma.creditPackage.upsert({
      where: { creditType_credits: { creditType: pkg.creditType, credits: pkg.credits } },
      create: { ...pkg },
      update: {},
    });
  }
  for (const [index, category] of CATEGORIES.entries()) {
    await prisma.category.upsert({ where: { slug: category.slug }, create: { ...category, sortOrder: index }, update: {} });
  }
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/prisma\//, "/prisma/"));
if (isMain) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
  seedDatabase(prisma)
    .then(() => prisma.$disconnect())
    .catch(async (error) => {
      console.error(error);
      await prisma.$disconnect();
      process.exit(1);
    });
}
