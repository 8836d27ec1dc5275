import { apiError } from "~/api/respond.server";

// Any other /v1 path: the API's 404 shape rather than an HTML page.
const notFound = () => apiError(404, "not_found", "No such API endpoint.");
export const loader = notFound;
export const action = notFound;
