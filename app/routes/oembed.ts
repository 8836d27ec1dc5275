import { methodNotAllowed } from "~/lib/method-not-allowed.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiError, errorToResponse } from "~/api/respond.server";
import { AppError } from "~/lib/errors";
import { getOembed } from "~/domain/oembed.server";
import { OEMBED_CACHE_SECONDS } from "~/lib/oembed";
import { SHARED_PAGE_SECONDS, SHOWS_HEADER } from "~/lib/public-page-cache";

// GET /oembed?url=…&format=json[&maxwidth=&maxheight=] (https://oembed.com §2.2): the answer is the oEmbed
// JSON itself, not our {status, data} envelope. Other formats are 501, unknown or private models 404.
const querySchema = z.object({
  url: z.string().min(1, "is required").max(2048),
  format: z.string().optional(),
  maxwidth: z.coerce.number().int().positive().max(10_000).optional(),
  maxheight: z.coerce.number().int().positive().max(10_000).optional(),
});

const CORS = { "Access-Control-Allow-Origin": "*" };

export async function loader({ request }: LoaderFunctionArgs) {
  try {
    const params = Object.fromEntries([...new URL(request.url).searchParams].filter(([, value]) => value !== ""));
    const parsed = querySchema.safeParse(params);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ");
      throw new AppError("invalid_input", detail);
    }
    const { format = "json", ...query } = parsed.data;
    if (format !== "json") return apiError(501, "not_implemented", "Only format=json is available.", { headers: CORS });
    const { oembed, shows } = await getOembed(query);
    return new Response(JSON.stringify(oembed), {
      headers: {
        ...CORS,
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": `public, max-age=${OEMBED_CACHE_SECONDS}, s-maxage=${SHARED_PAGE_SECONDS}`,
        ...(shows ? { [SHOWS_HEADER]: shows.join(" ") } : {}),
      },
    });
  } catch (error) {
    const response = errorToResponse(error, request);
    response.headers.set("Access-Control-Allow-Origin", "*");
    return response;
  }
}

export const action = methodNotAllowed(["GET"]);
