import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, createNonce, storageOrigins, withFrameAncestorsFrom, type PolicyConfig } from "./content-security-policy.server";

const local: PolicyConfig = {
  APP_URL: "http://localhost:3000",
  FIREBASE_PROJECT_ID: "demo-scanroom",
  FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
  FIREBASE_GOOGLE_SIGN_IN: false,
  STORAGE_DRIVER: "local",
  S3_FORCE_PATH_STYLE: false,
};
const production: PolicyConfig = {
  APP_URL: "https://scanroom.app",
  FIREBASE_PROJECT_ID: "scanroom-prod",
  FIREBASE_GOOGLE_SIGN_IN: true,
  SENTRY_DSN: "https://abc@o1.ingest.sentry.io/42",
  STORAGE_DRIVER: "s3",
  S3_BUCKET: "models",
  S3_ENDPOINT: "https://fra1.digitaloceanspaces.com",
  S3_FORCE_PATH_STYLE: false,
  RECAPTCHA_SITE_KEY: "site-key",
};

/** The policy as a map of directive → sources. */
function parse(policy: string) {
  return Object.fromEntries(policy.split("; ").map((part) => [part.split(" ")[0], part.split(" ").slice(1)]));
}

describe("contentSecurityPolicy (issue 17, item 14)", () => {
  it("locks scripts to our origin and this response's nonce, with no inline or eval", () => {
    const p = parse(contentSecurityPolicy({ nonce: "abc123", surface: "site", config: local }));
    expect(p["default-src"]).toEqual(["'self'"]);
    expect(p["script-src"]).toEqual(["'self'", "'nonce-abc123'", "'wasm-unsafe-eval'"]);
    expect(p["object-src"]).toEqual(["'none'"]);
    expect(p["base-uri"]).toEqual(["'self'"]);
    expect(p["worker-src"]).toEqual(["'self'", "blob:"]);
    expect(p["frame-ancestors"]).toEqual(["'self'"]);
    expect(p["connect-src"]).toContain("http://127.0.0.1:9099");
    for (const sources of Object.values(p)) {
      expect(sources).not.toContain("'unsafe-eval'");
    }
    expect(p["script-src"]).not.toContain("'unsafe-inline'");
  });

  it("names each surface's framers and third parties, and the production hosts", () => {
    expect(parse(contentSecurityPolicy({ nonce: "n", surface: "embed", config: local }))["frame-ancestors"]).toEqual(["*"]);
    const admin = parse(contentSecurityPolicy({ nonce: "n", surface: "shopify", config: local }));
    expect(admin["frame-ancestors"]).toEqual(["https://admin.shopify.com", "https://*.myshopify.com"]);
    expect(admin["script-src"]).toContain("https://cdn.shopify.com");
    const site = parse(contentSecurityPolicy({ nonce: "n", surface: "site", config: production }));
    expect(site["script-src"]).toEqual(
      expect.arrayContaining(["https://apis.google.com", "https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"]),
    );
    expect(site["script-src"]).not.toContain("https://cdn.shopify.com");
    expect(site["connect-src"]).toEqual(
      expect.arrayContaining([
        "https://identitytoolkit.googleapis.com",
        "https://securetoken.googleapis.com",
        "https://o1.ingest.sentry.io",
        "https://fra1.digitaloceanspaces.com",
        "https://models.fra1.digitaloceanspaces.com",
      ]),
    );
    expect(site["frame-src"]).toContain("https://scanroom-prod.firebaseapp.com");
    // The embed has no contact form: no reCAPTCHA there.
    expect(parse(contentSecurityPolicy({ nonce: "n", surface: "embed", config: production }))["script-src"]).not.toContain(
      "https://www.google.com/recaptcha/",
    );
  });

  it("finds the object store's hosts", () => {
    expect(storageOrigins(local)).toEqual([]);
    expect(storageOrigins({ ...production, S3_FORCE_PATH_STYLE: true })).toEqual(["https://fra1.digitaloceanspaces.com"]);
    expect(storageOrigins({ ...production, S3_ENDPOINT: undefined })).toEqual(["https://*.amazonaws.com"]);
  });

  it("keeps the Shopify library's narrower frame-ancestors", () => {
    const ours = contentSecurityPolicy({ nonce: "n", surface: "shopify", config: local });
    const merged = parse(withFrameAncestorsFrom(ours, "frame-ancestors https://shop-a.myshopify.com https://admin.shopify.com;"));
    expect(merged["frame-ancestors"]).toEqual(["https://shop-a.myshopify.com", "https://admin.shopify.com"]);
    expect(merged["object-src"]).toEqual(["'none'"]);
    expect(withFrameAncestorsFrom(ours, null)).toBe(ours);
  });

  it("makes a fresh 128-bit nonce each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, createNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});
