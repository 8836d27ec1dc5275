import { useRouteLoaderData } from "@remix-run/react";
import type { PublicEnv } from "~/env.server";

/** The browser-safe configuration the root loader sends (env.server publicEnv). */
export function usePublicEnv(): PublicEnv {
  const data = useRouteLoaderData<{ env: PublicEnv }>("root");
  if (!data) throw new Error("usePublicEnv needs the root loader data");
  return data.env;
}
