import { apiRoute, endpoint } from "~/api/route.server";
import { listCategories } from "~/domain/categories.server";

const route = apiRoute({
  GET: endpoint({ auth: "none", handler: () => listCategories() }),
});

export const loader = route.loader;
export const action = route.action;
