import { describe, expect, it } from "vitest";
import { describeTrainer, EnvError, parseEnv, parseWorkerConfig } from "./env.server";

const production = {
  SCANROOM_PROFILE: "production",
  DATABASE_URL: "postgresql://scanroom@db.internal:5432/scanroom",
  SESSION_SECRET: "s".repeat(40),
  STORAGE_SIGNING_SECRET: "t".repeat(40),
  STORAGE_DRIVER: "s3",
  S3_BUCKET: "scanroom-models",
  FIREBASE_PROJECT_ID: "scanroom-prod",
  FIREBASE_API_KEY: "web-key",
  MODEL_XOR_KEY: "xor",
  SHOPIFY_API_KEY: "key",
  SHOPIFY_API_SECRET: "secret",
};

function problemsOf(source: Record<string, string>): string[] {
  try {
    parseEnv(source);
    return [];
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
}

describe("parseEnv", () => {
  it("boots the local profile with embedded defaults and the Auth emulator", () => {
    const env = parseEnv({});
    expect(env.SCANROOM_PROFILE).toBe("local");
    expect(env.isProduction).toBe(false);
    expect(env.FIREBASE_AUTH_EMULATOR_HOST).toBe("127.0.0.1:9099");
    expect(env.STORAGE_DRIVER).toBe("local");
    expect(env.PORT).toBe(3000);
  });

  it("accepts a complete production configuration", () => {
    const env = parseEnv(production);
    expect(env.isProduction).toBe(true);
    expect(env.FIREBASE_AUTH_EMULATOR_HOST).toBeUndefined();
  });

  it("offers Google sign-in by default where a real Firebase project is configured, not under the emulator; the variable decides when set", () => {
    expect(parseEnv({}).FIREBASE_GOOGLE_SIGN_IN).toBe(false);
    expect(parseEnv({ FIREBASE_GOOGLE_SIGN_IN: "true" }).FIREBASE_GOOGLE_SIGN_IN).toBe(true);
    expect(parseEnv(production).FIREBASE_GOOGLE_SIGN_IN).toBe(true);
    expect(parseEnv({ ...production, FIREBASE_GOOGLE_SIGN_IN: "false" }).FIREBASE_GOOGLE_SIGN_IN).toBe(false);
    expect(parseEnv({ ...production, FIREBASE_GOOGLE_SIGN_IN: "" }).FIREBASE_GOOGLE_SIGN_IN).toBe(true);
    expect(() => parseEnv({ FIREBASE_GOOGLE_SIGN_IN: "yes" })).toThrow(/FIREBASE_GOOGLE_SIGN_IN/);
  });

  it("names every missing production variable", () => {
    const problems = problemsOf({ SCANROOM_PROFILE: "production" });
    for (const name of ["DATABASE_URL", "SESSION_SECRET", "STORAGE_SIGNING_SECRET", "FIREBASE_PROJECT_ID", "MODEL_XOR_KEY", "SHOPIFY_API_SECRET"]) {
      expect(problems.some((p) => p.startsWith(name))).toBe(true);
    }
    expect(problems).toContain("STORAGE_DRIVER must be s3 in the production profile");
  });

  it("refuses to boot production with the Auth emulator configured", () => {
    const problems = problemsOf({ ...production, FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" });
    expect(problems).toEqual([
      "FIREBASE_AUTH_EMULATOR_HOST must not be set in the production profile (the emulator accepts unsigned tokens)",
    ]);
  });

  it("takes a loopback origin for the tests' fake Shopify, and refuses it anywhere else or in production", () => {
    expect(parseEnv({ SHOPIFY_TEST_ADMIN_ORIGIN: "http://127.0.0.1:4100" }).SHOPIFY_TEST_ADMIN_ORIGIN).toBe("http://127.0.0.1:4100");
    expect(parseEnv({}).SHOPIFY_TEST_ADMIN_ORIGIN).toBeUndefined();
    for (const value of ["https://shop.example.com", "http://10.0.0.5:4100", "http://127.0.0.1:4100/admin", "not a url"]) {
      expect(problemsOf({ SHOPIFY_TEST_ADMIN_ORIGIN: value })[0]).toMatch(/^SHOPIFY_TEST_ADMIN_ORIGIN: /);
    }
    expect(problemsOf({ ...production, SHOPIFY_TEST_ADMIN_ORIGIN: "http://127.0.0.1:4100" })).toEqual([
      "SHOPIFY_TEST_ADMIN_ORIGIN must not be set in the production profile (Shopify calls go to Shopify itself)",
    ]);
  });

  it("takes Stripe's keys together or not at all, and only live keys and Stripe itself in production", () => {
    expect(parseEnv({}).STRIPE_SECRET_KEY).toBeUndefined();
    const local = parseEnv({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1", STRIPE_API_BASE: "http://127.0.0.1:12111" });
    expect([local.STRIPE_SECRET_KEY, local.STRIPE_WEBHOOK_SECRET, local.STRIPE_API_BASE]).toEqual(["sk_test_1", "whsec_1", "http://127.0.0.1:12111"]);
    const together = ["STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together or not at all (payments need both)"];
    expect(problemsOf({ STRIPE_SECRET_KEY: "sk_test_1" })).toEqual(together);
    expect(problemsOf({ STRIPE_WEBHOOK_SECRET: "whsec_1" })).toEqual(together);
    expect(problemsOf({ STRIPE_API_BASE: "not a url" })[0]).toMatch(/^STRIPE_API_BASE: /);
    expect(parseEnv({ ...production, STRIPE_SECRET_KEY: "sk_live_1", STRIPE_WEBHOOK_SECRET: "whsec_1" }).STRIPE_SECRET_KEY).toBe("sk_live_1");
    expect(problemsOf({ ...production, STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1", STRIPE_API_BASE: "http://127.0.0.1:12111" })).toEqual([
      "STRIPE_API_BASE must not be set in the production profile (payments go to Stripe itself)",
      "STRIPE_SECRET_KEY must be a live key (sk_live_… or rk_live_…) in the production profile: test-mode payments grant nothing real",
    ]);
  });

  it("allows links on the legacy hosts, and locally on the loopback names of PORT; in production on the legacy hosts only", () => {
    expect(parseEnv({ PORT: "4100", LEGACY_HOSTS: " Old.Example.com , legacy.test:8080" }).linkHosts).toEqual([
      "old.example.com",
      "legacy.test:8080",
      "127.0.0.1:4100",
      "localhost:4100",
      "[::1]:4100",
    ]);
    expect(parseEnv({ PORT: "80" }).linkHosts).toEqual(["127.0.0.1", "localhost", "[::1]"]);
    expect(parseEnv({ ...production, LEGACY_HOSTS: "old.example.com" }).linkHosts).toEqual(["old.example.com"]);
  });

  it("takes TRUSTED_PROXIES as addresses and CIDR ranges, naming each entry that is neither", () => {
    expect(parseEnv({}).TRUSTED_PROXIES).toEqual([]);
    expect(parseEnv({ TRUSTED_PROXIES: " 10.0.0.5, 192.168.0.0/16,2001:db8::/32 ,::1" }).TRUSTED_PROXIES).toEqual([
      "10.0.0.5",
      "192.168.0.0/16",
      "2001:db8::/32",
      "::1",
    ]);
    expect(problemsOf({ TRUSTED_PROXIES: "10.0.0.5, proxy.internal, 10.0.0.0/33, 10.0.0.0/8/1, ::/129" })).toEqual([
      'TRUSTED_PROXIES: "proxy.internal" is not an IP address or a CIDR range (10.0.0.0/8)',
      'TRUSTED_PROXIES: "10.0.0.0/33" is not an IP address or a CIDR range (10.0.0.0/8)',
      'TRUSTED_PROXIES: "10.0.0.0/8/1" is not an IP address or a CIDR range (10.0.0.0/8)',
      'TRUSTED_PROXIES: "::/129" is not an IP address or a CIDR range (10.0.0.0/8)',
    ]);
  });

  it("refuses short secrets and malformed values with the variable's name", () => {
    expect(problemsOf({ ...production, SESSION_SECRET: "short" })).toEqual(["SESSION_SECRET must be at least 32 characters"]);
    expect(problemsOf({ PORT: "eighty" })[0]).toMatch(/^PORT: /);
    expect(problemsOf({ DATABASE_URL: "mysql://x" })[0]).toMatch(/^DATABASE_URL: must be a postgresql:\/\/ URL/);
    expect(problemsOf({ SCANROOM_PROFILE: "staging" })[0]).toMatch(/^SCANROOM_PROFILE: /);
  });
});

describe("the CPU trainer's opacity-reset setting", () => {
  it("does not reset unless told to, and takes a fraction of the budget", () => {
    expect(parseWorkerConfig({}).SCAN_TRAIN_OPACITY_RESET_EVERY).toBe(0);
    expect(parseWorkerConfig({ SCAN_TRAIN_OPACITY_RESET_EVERY: "0.175" }).SCAN_TRAIN_OPACITY_RESET_EVERY).toBe(0.175);
    expect(parseWorkerConfig({ SCAN_TRAIN_OPACITY_RESET_EVERY: "0" }).SCAN_TRAIN_OPACITY_RESET_EVERY).toBe(0);
    expect(parseWorkerConfig({ SCAN_TRAIN_OPACITY_RESET_EVERY: "0.1" }).SCAN_TRAIN_OPACITY_RESET_EVERY).toBe(0.1);
  });

  it("refuses a fraction outside 0–1 or a word, naming the setting", () => {
    for (const value of ["-0.1", "1.5", "often"]) {
      expect(() => parseWorkerConfig({ SCAN_TRAIN_OPACITY_RESET_EVERY: value })).toThrow(/SCAN_TRAIN_OPACITY_RESET_EVERY/);
    }
  });
});

describe("the trainer the worker names when it starts", () => {
  it("is our CPU trainer with its budget unless a trainer command is set or training is off", () => {
    expect(describeTrainer(parseWorkerConfig({}))).toBe("ours on the CPU (native/train), up to 6 min per scan");
    expect(describeTrainer(parseWorkerConfig({ SCAN_TRAIN_MINUTES: "0" }))).toBe("none: SCAN_TRAIN_MINUTES=0, splats built from the points");
    expect(describeTrainer(parseWorkerConfig({ SCAN_TRAINER_COMMAND: "train {dataset} {output}" }))).toBe("SCAN_TRAINER_COMMAND (external, e.g. a GPU trainer)");
  });
});
