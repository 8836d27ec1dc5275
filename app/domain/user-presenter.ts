import type { Plan, Subscription, User } from "~/db.server";
import { publicDisplayName } from "./public-name";

export const avatarUrl = (user: Pick<User, "id" | "avatarKey" | "updatedAt">) =>
  user.avatarKey ? `/avatars/${user.id}?v=${user.updatedAt.getTime()}` : null;

export function presentPublicUser(user: User) {
  return {
    id: user.id,
    display_name: publicDisplayName(user),
    avatar_url: avatarUrl(user),
    created_at: user.createdAt.toISOString(),
  };
}

export function presentCurrentUser(user: User & { subscription: (Subscription & { plan: Plan }) | null }) {
  const plan = user.subscription?.plan;
  return {
    ...presentPublicUser(user),
    email: user.email,
    email_verified: user.emailVerified,
    is_admin: user.isAdmin,
    plan: plan ? { id: plan.id, name: plan.name, plan_type: plan.planType } : null,
    current_period_end: user.subscription?.currentPeriodEnd.toISOString() ?? null,
  };
}
