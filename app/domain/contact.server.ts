import { db, type ContactMessage } from "~/db.server";
import { verifyCaptcha } from "~/lib/captcha.server";
import type { ContactInput } from "./schemas";

/** Contact messages (/contact): checked by the captcha when one is configured, stored for admins. */
export async function submitContactMessage(input: {
  message: ContactInput;
  userId: string | null;
  remoteIp: string | null;
}): Promise<{ id: string }> {
  const { captcha_token, captcha_version, ...fields } = input.message;
  await verifyCaptcha({ token: captcha_token, version: captcha_version, remoteIp: input.remoteIp });
  const row = await db().contactMessage.create({
    data: { userId: input.userId, name: fields.name, email: fields.email, subject: fields.subject ?? null, message: fields.message },
    select: { id: true },
  });
  return row;
}

export function presentContactMessage(row: ContactMessage) {
  return {
    id: row.id,
    user_id: row.userId,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    created_at: row.createdAt.toISOString(),
  };
}

/** Newest first, for admins. */
export async function listContactMessages({ limit = 100 }: { limit?: number } = {}) {
  const rows = await db().contactMessage.findMany({ orderBy: { createdAt: "desc" }, take: limit });
  return rows.map(presentContactMessage);
}
