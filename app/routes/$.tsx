import { redirect } from "@remix-run/node";

// Unknown routes go to / (SPEC §2).
export const loader = () => redirect("/");
