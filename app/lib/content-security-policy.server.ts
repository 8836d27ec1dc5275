import { randomBytes } from "node:crypto";

/**
 * The Content-Security-Policy of every page (issue 17, item 14; docs/decisions/020-content-security-policy.md).
 * Scripts run only from our origin, with this response's nonce (Remix's inline hydration data, the public
 * configuration), or from the few third parties a surface needs; plugins are off and `<base>` cannot move
 * our relative URLs. Styles may be inline: PrimeReact and the viewer set style attributes and inject
 * `<style>` elements at run time, and style injection cannot run script.
 */
export type PageSurface = "site" | "embed" | "shopify";

/** The configuration the policy depends on (a slice of env.server's `env()`). */
export interface PolicyConfig {
  APP_URL: string;
  FIREBASE_PROJECT_ID?: string;
  FIREBASE_AUTH_DOMAIN?: string;
  FIREBASE_AUTH_EMULATOR_HOST?: string;
  FIREBASE_GOOGLE_SIGN_IN: boolean;
  SENTRY_DSN?: string;
  STORAGE_DRIVER: "local" | "s3";
  S3_BUCKET?: string;
  S3_REGION?: string;
  S3_ENDPOINT?: string;
  S3_FORCE_PATH_STYLE: boolean;
  RECAPTCHA_SITE_KEY?: string;
}

/** 128 random bits, base64: a fresh one for every page response (CSP3 §2.3.1). */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

const originOf = (url: string | undefined) => (url && URL.canParse(url) ? new URL(url).origin : null);

/** Where signed storage URLs point: the model, upload and thumbnail hosts the browser talks to. */
export function storageOrigins(config: PolicyConfig): string[] {
  if (config.STORAGE_DRIVER !== "s3") return [];
  const endpoint = config.S3_ENDPOINT ? new URL(config.S3_ENDPOINT) : null;
  if (endpoint) {
    // Path-style URLs stay on the endpoint; virtual-hosted ones put the bucket in front of its host.
    return config.S3_FORCE_PATH_STYLE || !config.S3_BUCKET
      ? [endpoint.origin]
      : [endpoint.origin, `${endpoint.protocol}//${config.S3_BUCKET}.${endpoint.host}`];
  }
  return config.S3_BUCKET ? ["https://*.amazonaws.com"] : [];
}

/** The Firebase Auth hosts the browser SDK calls, or the emulator in the local profile. */
function firebaseSources(config: PolicyConfig) {
  const emulator = config.FIREBASE_AUTH_EMULATOR_HOST ? `http://${config.FIREBASE_AUTH_EMULATOR_HOST}` : null;
  const authDomain = config.FIREBASE_AUTH_DOMAIN ?? (config.FIREBASE_PROJECT_ID ? `${config.FIREBASE_PROJECT_ID}.firebaseapp.com` : null);
  const google = config.FIREBASE_GOOGLE_SIGN_IN;
  return {
    connect: emulator ? [emulator] : ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com", "https://www.googleapis.com"],
    // The Google sign-in popup talks to the auth domain's helper iframe, loaded through Google's API loader.
    script: google && !emulator ? ["https://apis.google.com"] : [],
    frame: [...(emulator ? [emulator] : []), ...(google && authDomain ? [`https://${authDomain}`] : [])],
  };
}

/** The policy for one page response. */
export function contentSecurityPolicy({ nonce, surface, config }: { nonce: string; surface: PageSurface; config: PolicyConfig }): string {
  const firebase = firebaseSources(config);
  const storage = storageOrigins(config);
  const appOrigin = originOf(config.APP_URL);
  const sentry = originOf(config.SENTRY_DSN);
  const recaptcha = surface === "site" && config.RECAPTCHA_SITE_KEY;
  const shopify = surface === "shopify";
  const unique = (values: Array<string | null | false | undefined>) => [...new Set(values.filter((v): v is string => Boolean(v)))];

  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": unique([
      "'self'",
      `'nonce-${nonce}'`,
      // WebAssembly only (no eval): Spark's splat sorter, three's Draco, Basis and meshopt decoders.
      "'wasm-unsafe-eval'",
      ...firebase.script,
      recaptcha && "https://www.google.com/recaptcha/",
      recaptcha && "https://www.gstatic.com/recaptcha/",
      shopify && "https://cdn.shopify.com",
    ]),
    "style-src": unique(["'self'", "'unsafe-inline'", shopify && "https://cdn.shopify.com"]),
    "img-src": unique(["'self'", "data:", "blob:", appOrigin, ...storage, shopify && "https://cdn.shopify.com"]),
    "font-src": unique(["'self'", "data:", shopify && "https://cdn.shopify.com"]),
    "media-src": unique(["'self'", "blob:", appOrigin, ...storage]),
    // data: and blob: for glTF buffers embedded in the file and models picked from disk.
    "connect-src": unique([
      "'self'",
      "data:",
      "blob:",
      appOrigin,
      ...storage,
      ...firebase.connect,
      sentry,
      recaptcha && "https://www.google.com/recaptcha/",
      shopify && "https://*.shopify.com",
      shopify && "https://*.myshopify.com",
    ]),
    // Decoder workers are made from blob: URLs (three's DRACOLoader and KTX2Loader).
    "worker-src": ["'self'", "blob:"],
    "frame-src": unique([
      "'self'",
      ...firebase.frame,
      recaptcha && "https://www.google.com/recaptcha/",
      recaptcha && "https://recaptcha.google.com/recaptcha/",
      shopify && "https://*.shopify.com",
    ]),
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    // Who may frame the page (DESIGN §4): the site only itself, embeds anyone, the admin only Shopify.
    "frame-ancestors":
      surface === "embed" ? ["*"] : surface === "shopify" ? ["https://admin.shopify.com", "https://*.myshopify.com"] : ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/**
 * The policy with another header's `frame-ancestors` kept: the Shopify library narrows the admin's to the
 * shop named in the URL, which is stricter than ours and must win.
 */
export function withFrameAncestorsFrom(policy: string, existing: string | null): string {
  const theirs = existing
    ?.split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith("frame-ancestors "));
  if (!theirs) return policy;
  return policy
    .split("; ")
    .map((part) => (part.startsWith("frame-ancestors ") ? theirs : part))
    .join("; ");
}
