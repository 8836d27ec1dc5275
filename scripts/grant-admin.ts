// Makes an existing account an admin (SPEC §6 user.is_admin lives in our database): how the first
// admin is made; after that, admins grant and revoke rights in /admin/users. The account must have
// signed in once. The change is recorded in the audit log with no actor ("system").
//
//   DATABASE_URL=postgresql://… npm run admin:grant -- someone@example.com
//   (with `npm start` running: DATABASE_URL=postgresql://postgres:postgres@127.0.0.1:54329/scanroom)
import { db, disconnectDb } from "~/db.server";
import { setUserAdmin } from "~/domain/admin-users.server";

const email = process.argv[2]?.trim();
if (!email) {
  process.stderr.write("usage: npm run admin:grant -- <email>\n");
  process.exit(2);
}
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
}
