import { apiRoute, endpoint } from "~/api/route.server";
import { submitContactMessage } from "~/domain/contact.server";
import { contactBodySchema } from "~/domain/schemas";

// POST /v1/contact {name, email, subject?, message, captcha_token?, captcha_version?} → {id}
const route = apiRoute({
  POST: endpoint({
    auth: "optional",
    body: contactBodySchema,
    // The client's address for reCAPTCHA: X-Forwarded-For counts only from a configured proxy (docs/decisions/039).
    handler: ({ user, body, clientAddress }) => submitContactMessage({ message: body, userId: user?.id ?? null, remoteIp: clientAddress }),
  }),
});

export const loader = route.loader;
export const action = route.action;
