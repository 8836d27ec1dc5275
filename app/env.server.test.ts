import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";

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

  it("refuses short secrets and malformed values with the variable's name", () => {
    expect(problemsOf({ ...production, SESSION_SECRET: "short" })).toEqual(["SESSION_SECRET must be at least 32 characters"]);
    expect(problemsOf({ PORT: "eighty" })[0]).toMatch(/^PORT: /);
    expect(problemsOf({ DATABASE_URL: "mysql://x" })[0]).toMatch(/^DATABASE_URL: must be a postgresql:\/\/ URL/);
    expect(problemsOf({ SCANROOM_PROFILE: "staging" })[0]).toMatch(/^SCANROOM_PROFILE: /);
  });
});
