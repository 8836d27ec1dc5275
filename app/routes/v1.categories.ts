import { apiRoute, endpoint } from "~/api/route.server";
import { listCategories } from "~/domain/categories.server";

export const { loader, action } = apiRoute({
  GET: endpoint({ auth: "none", handler: () => listCategories() }),
});
