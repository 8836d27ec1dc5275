import { apiRoute, endpoint } from "~/api/route.server";
import { listContactMessages } from "~/domain/contact.server";

// GET /v1/admin/contact-messages → the newest contact messages (admins only).
const route = apiRoute({
  GET: endpoint({ auth: "admin", handler: () => listContactMessages() }),
});

export const loader = route.loader;
export const action = route.action;
