import "@shopify/shopify-app-remix/adapters/node";
import {
  ApiVersion,
  AppDistribution,
  BillingInterval,
  LogSeverity,
  shopifyApp,
} from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";

type SessionStorageClient = ConstructorParameters<typeof PrismaSessionStorage>[0];
import { PLANS } from "../prisma/seed-data";
import { db } from "./db.server";
import { apiError } from "./api/respond.server";
import { isAppError } from "./lib/errors";
import { SHOPIFY_PLAN_NAMES, type ShopifyPaidPlan } from "./domain/shopify-billing.server";
import { env } from "./env.server";
import { readJsonText } from "./lib/json-body.server";
import { logger } from "./lib/logger.server";

/**
 * The one place Shopify is configured (STYLE: Shopify's Remix template). Created on first use, so tests can
 * set SHOPIFY_* before anything reads the environment.
 *
 * Auth paths live under /shopify/auth because our own /auth is Firebase sign-in (DESIGN §4).
 */

/** Keep in step with `[webhooks] api_version` in shopify.app.toml. Newest version shopify-api 13.1 knows. */
export const apiVersion = ApiVersion.July26;

export const SHOPIFY_AUTH_PATH_PREFIX = "/shopify/auth";

// The library's own log lines go through our logger, which masks bearer strings and JWTs.
function logShopify(severity: LogSeverity, message: string) {
  const fields = { source: "shopify-app" };
  if (severity === LogSeverity.Error) logger.error(message, fields);
  else if (severity === LogSeverity.Warning) logger.warn(message, fields);
  else if (severity === LogSeverity.Info) logger.info(message, fields);
  else logger.debug(message, fields);
}

/**
 * Our paid plans as Shopify recurring charges (Billing API), named by SHOPIFY_PLAN_NAMES. The amounts here are
 * the launch prices (prisma/seed-data.ts, decision 004); the plan page passes the Plan table's current price
 * with each request, so a price edited in the database is what the merchant is asked to approve.
 */
function monthlyCharge(planType: ShopifyPaidPlan) {
  const plan = PLANS.find((p) => p.planType === planType)!;
  return { lineItems: [{ amount: plan.priceAmount / 100, currencyCode: "USD", interval: BillingInterval.Every30Days as const }] };
}
const billing = {
  [SHOPIFY_PLAN_NAMES.starter]: monthlyCharge("starter"),
  [SHOPIFY_PLAN_NAMES.growth]: monthlyCharge("growth"),
  [SHOPIFY_PLAN_NAMES.pro]: monthlyCharge("pro"),
};

/**
 * Tests only (SHOPIFY_TEST_ADMIN_ORIGIN, docs/decisions/013): every call the Shopify library makes to a shop
 * (`https://{shop}/admin/api/…/graphql.json`, token exchange) goes to the local fake of Shopify instead, as
 * `{origin}/{shop}/admin/…`, unchanged otherwise (method, headers with the access token, body). The library
 * sends all of them through this one fetch (its runtime adapter's), so nothing else in the app changes.
 */
function sendShopCallsTo(origin: string) {
  const base = new URL(origin).origin;
  setAbstractFetchFunc(async (input: RequestInfo | URL, init?: RequestInit) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    const local = `${base}/${target.host}${target.pathname}${target.search}`;
    return input instanceof Request ? fetch(new Request(local, input), init) : fetch(local, init);
  });
}

function createShopify() {
  const config = env();
  if (config.SHOPIFY_TEST_ADMIN_ORIGIN) sendShopCallsTo(config.SHOPIFY_TEST_ADMIN_ORIGIN);
  return shopifyApp({
    apiKey: config.SHOPIFY_API_KEY,
    apiSecretKey: config.SHOPIFY_API_SECRET,
    apiVersion,
    scopes: config.SHOPIFY_SCOPES.split(",").map((s) => s.trim()).filter(Boolean),
    appUrl: config.SHOPIFY_APP_URL ?? config.APP_URL,
    authPathPrefix: SHOPIFY_AUTH_PATH_PREFIX,
    // `tableName` is the Prisma model the package reads as `prisma[tableName]`; ours is ShopifySession so it
    // does not clash with our own tables (DESIGN §4).
    // Our client comes from the `prisma-client` generator; the package is typed against the classic
    // `@prisma/client` class. Same runtime, same model accessors, so the cast is sound.
    sessionStorage: new PrismaSessionStorage(db() as unknown as SessionStorageClient, { tableName: "ShopifySession" }),
    distribution: AppDistribution.AppStore,
    billing,
    isEmbeddedApp: true,
    future: {
      // Token exchange: Shopify-managed install (scopes from shopify.app.toml), no OAuth redirects.
      unstable_newEmbeddedAuthStrategy: true,
      // Offline tokens expire and are refreshed by the library (refreshToken columns in ShopifySession).
      expiringOfflineAccessTokens: true,
    },
    logger: { level: LogSeverity.Info, log: logShopify },
  });
}

type ShopifyInstance = ReturnType<typeof createShopify>;
let instance: ShopifyInstance | undefined;

/** The configured Shopify app object (created on first call). */
export function shopify(): ShopifyInstance {
  if (!instance) instance = createShopify();
  return instance;
}

/**
 * Authenticates an embedded admin request (session token in `Authorization: Bearer` or `?id_token=`).
 * Throws a Response (redirect to the bounce page, 401 with `X-Shopify-Retry-Invalid-Session-Request`, 410 for
 * bots) that the route must let propagate.
 */
export function authenticateAdmin(request: Request) {
  return shopify().authenticate.admin(request);
}

/** Shopify's webhook bodies are small JSON; the library reads a whole body to check its HMAC, so ours caps it first. */
const WEBHOOK_MAX_BYTES = 512 * 1024;

/**
 * Verifies a webhook's HMAC and headers. Throws 401 (bad HMAC), 400 (missing headers) or 405 (not POST), and
 * first 413 or 400 for a body over the size or depth limit of every JSON body (app/lib/json-body.server.ts).
 * Answers the library's result with the raw body text beside it.
 */
export async function authenticateWebhook(request: Request) {
  let rawBody: string;
  try {
    rawBody = (await readJsonText(request.clone(), { maxBytes: WEBHOOK_MAX_BYTES })) ?? "";
  } catch (error) {
    if (isAppError(error)) throw apiError(error.status, error.code, error.message);
    throw error;
  }
  return { ...(await shopify().authenticate.webhook(request)), rawBody };
}

/** The login form's handler for non-embedded installs: returns field errors or throws a redirect. */
export function shopifyLogin(request: Request) {
  return shopify().login(request);
}

/**
 * Sets the App Bridge preload `Link` and, when the URL carries a valid `?shop=`, a `Content-Security-Policy:
 * frame-ancestors` that lets that shop's admin frame us. Call it only for Shopify admin documents (DESIGN §4).
 */
export function addShopifyDocumentHeaders(request: Request, headers: Headers) {
  shopify().addDocumentResponseHeaders(request, headers);
}
