import { useRouteLoaderData } from "@remix-run/react";
import type { PublicEnv } from "~/env.server";

/** The browser-safe configuration the root loader sends (env.server publicEnv). */
export function usePublicEnv(): PublicEnv {
  const data = useRouteLoaderData<{ env: PublicEnv }>("root");
  if (!data) throw new Error("usePublicEnv needs the root loader data");
  return data.env;
}

/** The same configuration from a meta function's `matches` (null before the root loader has data). */
export function publicEnvFromMatches(matches: ReadonlyArray<{ id: string; data: unknown }>): PublicEnv | null {
  const root = matches.find((match) => match.id === "root")?.data as { env?: PublicEnv } | undefined;
  return root?.env ?? null;
}
