import { apiRoute, endpoint } from "~/api/route.server";
import { submitContactMessage } from "~/domain/contact.server";
import { contactBodySchema } from "~/domain/schemas";

function clientIp(request: Request): string | null {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || null;
}

// POST /v1/contact {name, email, subject?, message, captcha_token?, captcha_version?} → {id}
const route = apiRoute({
  POST: endpoint({
    auth: "optional",
    body: contactBodySchema,
    handler: ({ user, body, request }) => submitContactMessage({ message: body, userId: user?.id ?? null, remoteIp: clientIp(request) }),
  }),
});

export const loader = route.loader;
export const action = route.action;
