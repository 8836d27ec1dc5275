// Makes an existing account an admin (SPEC §6 user.is_admin lives in our database): how the first
// admin is made; after that, admins grant and revoke rights in /admin/users. The account must have
// signed in once. The change is recorded in the audit log with no actor ("system").
//
//   npm run admin:grant -- someone@example.com
// works on the embedded database of `npm start` (running or not); DATABASE_URL=postgresql://… picks another.
import { databaseForCommand } from "./lib/embedded-database.mjs";

const email = process.argv[2]?.trim();
if (!email) {
  process.stderr.write("usage: npm run admin:grant -- <email>\n");
  process.exit(2);
}

let database: { url: string; stop: () => Promise<void> };
try {
  database = await databaseForCommand();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
process.env.DATABASE_URL = database.url;
// Imported once DATABASE_URL is known: the app's configuration reads it on first use.
const { db, disconnectDb } = await import("~/db.server");
const { setUserAdmin } = await import("~/domain/admin-users.server");
try {
  const users = await db().user.findMany({ where: { email: { equals: email, mode: "insensitive" } }, select: { id: true } });
  if (users.length !== 1) {
    process.stderr.write(users.length === 0 ? `No account with the email ${email} has signed in yet.\n` : `Several accounts use ${email}; grant it in /admin/users.\n`);
    process.exitCode = 1;
  } else {
    await setUserAdmin({ userId: users[0].id, isAdmin: true, actorId: null });
    process.stdout.write(`${email} is now an admin.\n`);
  }
} finally {
  await disconnectDb();
  await database.stop();
}
