import { isIP } from "node:net";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

/**
 * The one place configuration is read (the web app's, the logger's and the scan worker's). Validated once with
 * zod; a bad or missing variable stops the boot with a message naming each one. Two profiles (DESIGN §3):
 * - local (default): embedded services with safe local defaults;
 * - production: real database, storage, Firebase project and secrets; refuses emulator settings.
 * The scan worker's settings are a section of their own (workerConfig), validated when a worker or the scan
 * check first reads them, so a web-only deployment is not held to them.
 */

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v.trim() : undefined));

/** `http://127.0.0.1:4100` and the like: a plain origin on this machine, nothing else. */
function isLoopbackHttpOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    url.protocol === "http:" &&
    ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname) &&
    url.pathname === "/" &&
    !url.search &&
    !url.username
  );
}

/** `10.0.0.7`, `2001:db8::1`, `10.0.0.0/8`, `2001:db8::/32`: one address or one CIDR range. */
function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

const commaList = (value: string) =>
  value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);

const baseSchema = z.object({
  SCANROOM_PROFILE: z.enum(["local", "production"]).default("local"),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** On SIGTERM: seconds /readyz answers 503 before the listener closes (a balancer's time to notice). */
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(300).default(0),
  /** Then: seconds requests in flight may still take before they are cut. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(25),
  /**
   * Seconds an idle keep-alive connection stays open. Above the idle timeout of whatever sends requests (60 s
   * on the common balancers): a client must never send on a connection the server is closing (decision 059).
   */
  KEEP_ALIVE_SECONDS: z.coerce.number().int().min(1).max(3600).default(65),
  /** Web processes for visitors' requests on PORT, each replaced when it dies; 1 (and no signed-in ones): this process serves alone. */
  WEB_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * Web processes of their own for signed-in work (sign-in, the API, uploads, edits) at a lower CPU priority, so
   * that visitors' pages go first when the cores are busy (docs/decisions/064-signed-in-work-in-processes-of-its-own.md).
   * Unset: 1 when WEB_PROCESSES > 1, else 0. 0: every web process serves everything.
   */
  SIGNED_IN_WEB_PROCESSES: z.coerce.number().int().min(0).max(64).optional(),
  /** The nice value of the signed-in web processes (0: the same priority as visitors'; 19: the lowest). */
  SIGNED_IN_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /**
   * Signed-in requests (API calls, sign-in, form posts) each web process runs at once; more wait their turn, while
   * signed-out visitors' GETs never wait (docs/decisions/061-signed-in-work-takes-turns.md). 0: no limit.
   */
  SIGNED_IN_REQUESTS_AT_ONCE: z.coerce.number().int().min(0).max(10_000).default(4),
  /** Upload PUTs (signed links) each web process receives at once; more wait their turn (decision 061). 0: no limit. */
  UPLOADS_AT_ONCE: z.coerce.number().int().min(0).max(10_000).default(8),
  APP_URL: z.string().url().default("http://localhost:3000"),
  DATABASE_URL: optionalString.pipe(
    z.string().regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL").optional(),
  ),
  SESSION_SECRET: optionalString,
  STORAGE_DRIVER: z.enum(["local", "s3"]).default("local"),
  STORAGE_DIR: z.string().default(".data/storage"),
  STORAGE_SIGNING_SECRET: optionalString,
  S3_BUCKET: optionalString,
  S3_REGION: optionalString,
  S3_ENDPOINT: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: bool,
  FIREBASE_PROJECT_ID: optionalString,
  FIREBASE_API_KEY: optionalString,
  FIREBASE_AUTH_DOMAIN: optionalString,
  FIREBASE_AUTH_EMULATOR_HOST: optionalString,
  /** "Continue with Google" on the sign-in page; unset: on wherever a real Firebase project is configured (not the emulator). */
  FIREBASE_GOOGLE_SIGN_IN: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : v === "true" || v === "1")),
  MODEL_XOR_KEY: optionalString,
  MAX_MODEL_BYTES: z.coerce.number().int().positive().default(500 * 1024 * 1024),
  MAX_JSON_BYTES: z.coerce.number().int().positive().default(64 * 1024),
  /**
   * MiB of model downloads each web process holds in memory, already XORed (docs/decisions/058-model-bytes-held.md);
   * files over an eighth of it are streamed from storage on every download. 0: none held.
   */
  MODEL_BYTES_CACHE_MB: z.coerce.number().int().min(0).max(16_384).default(128),
  /** MiB of signed-out visitors' pages the web process keeps (docs/decisions/045-shared-page-cache.md); 0: none. */
  SHARED_PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
  /**
   * Seconds a shared page of one model (model page, embed, oEmbed) may be kept while the database's change notices
   * are heard (docs/decisions/057-shared-pages-kept-until-changed.md): each page between half and all of it, by its
   * key, so that pages rendered together do not expire together (decision 072); 0: only its s-maxage, 10 s.
   */
  SHARED_PAGE_KEPT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /**
   * Before a web process for visitors takes traffic, it asks itself for the front door and up to this many
   * most-viewed public models' pages, most viewed first, as many as WARM_UP_SECONDS allows
   * (docs/decisions/068-web-processes-warm-up-before-serving.md, 069, 072); 0: the front door alone.
   */
  WARM_UP_MODELS: z.coerce.number().int().min(0).max(1000).default(1000),
  /** The most seconds that warm-up may hold a starting web process back from traffic; 0: none. */
  WARM_UP_SECONDS: z.coerce.number().int().min(0).max(300).default(60),
  SENTRY_DSN: optionalString.pipe(z.string().url().optional()),
  SENTRY_ENVIRONMENT: optionalString,
  SHOPIFY_API_KEY: optionalString,
  SHOPIFY_API_SECRET: optionalString,
  SHOPIFY_APP_URL: optionalString.pipe(z.string().url().optional()),
  SHOPIFY_SCOPES: z.string().default("read_products,write_products"),
  SHOPIFY_APP_LISTING_URL: z.string().url().default("https://apps.shopify.com/"),
  // Tests only (docs/decisions/013): a local fake of Shopify that the Shopify library's calls to a shop
  // (`https://{shop}/admin/...`) go to instead, as `{origin}/{shop}/admin/...`. Loopback only: those calls
  // carry the shop's access token.
  SHOPIFY_TEST_ADMIN_ORIGIN: optionalString.pipe(
    z
      .string()
      .url()
      .refine((value) => isLoopbackHttpOrigin(value), "must be an http:// origin on 127.0.0.1, localhost or [::1]")
      .optional(),
  ),
  TERMS_URL: z.string().url().default("https://scanroom.app/terms"),
  WEBSITE_URL: z.string().url().default("https://scanroom.app/"),
  LEGACY_HOSTS: z.string().default(""),
  // The proxies (load balancer, CDN) whose X-Forwarded-For/-Host/-Proto are believed: addresses or CIDR ranges,
  // comma-separated. Anyone else's are ignored (docs/decisions/039).
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform(commaList)
    .superRefine((entries, context) => {
      for (const entry of entries.filter((e) => !isAddressOrRange(e))) {
        context.addIssue({ code: "custom", message: `${JSON.stringify(entry)} is not an IP address or a CIDR range (10.0.0.0/8)` });
      }
    }),
  // reCAPTCHA for the contact form (optional): v3, falling back to the v2 checkbox when a v2 pair is set.
  RECAPTCHA_SITE_KEY: optionalString,
  RECAPTCHA_SECRET_KEY: optionalString,
  RECAPTCHA_V2_SITE_KEY: optionalString,
  RECAPTCHA_V2_SECRET_KEY: optionalString,
  RECAPTCHA_VERIFY_URL: z.string().url().default("https://www.google.com/recaptcha/api/siteverify"),
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  // Stripe payments on the site (docs/decisions/009). Without a key, the pricing and top-up pages say
  // online checkout is not available. STRIPE_API_BASE points the client elsewhere (tests' fake Stripe).
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_BASE: optionalString.pipe(z.string().url().optional()),
});

type Raw = z.infer<typeof baseSchema>;

const LOCAL_DEFAULTS = {
  SESSION_SECRET: "local-only-session-secret-not-for-production",
  STORAGE_SIGNING_SECRET: "local-only-storage-signing-secret",
  FIREBASE_PROJECT_ID: "demo-scanroom",
  FIREBASE_API_KEY: "demo-api-key",
  FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
  MODEL_XOR_KEY: "scanroom-local-xor-key",
  SHOPIFY_API_KEY: "local-shopify-api-key",
  SHOPIFY_API_SECRET: "local-shopify-api-secret",
} as const;

function productionProblems(raw: Raw): string[] {
  const problems: string[] = [];
  const need = (name: keyof Raw, why: string) => {
    if (!raw[name]) problems.push(`${name} is required in the production profile (${why})`);
  };
  need("DATABASE_URL", "a real PostgreSQL database");
  need("SESSION_SECRET", "signs session cookies");
  need("STORAGE_SIGNING_SECRET", "signs upload and download URLs");
  need("FIREBASE_PROJECT_ID", "verifies sign-in tokens");
  need("FIREBASE_API_KEY", "the browser sign-in SDK");
  need("MODEL_XOR_KEY", "model download obfuscation");
  need("SHOPIFY_API_KEY", "the Shopify app");
  need("SHOPIFY_API_SECRET", "the Shopify app");
  if (raw.STORAGE_DRIVER !== "s3") problems.push("STORAGE_DRIVER must be s3 in the production profile");
  else need("S3_BUCKET", "the object store bucket");
  if (raw.FIREBASE_AUTH_EMULATOR_HOST) {
    problems.push(
      "FIREBASE_AUTH_EMULATOR_HOST must not be set in the production profile (the emulator accepts unsigned tokens)",
    );
  }
  if (raw.SHOPIFY_TEST_ADMIN_ORIGIN) {
    problems.push("SHOPIFY_TEST_ADMIN_ORIGIN must not be set in the production profile (Shopify calls go to Shopify itself)");
  }
  if (raw.STRIPE_API_BASE) problems.push("STRIPE_API_BASE must not be set in the production profile (payments go to Stripe itself)");
  if (raw.STRIPE_SECRET_KEY && !/^(sk|rk)_live_/.test(raw.STRIPE_SECRET_KEY)) {
    problems.push("STRIPE_SECRET_KEY must be a live key (sk_live_… or rk_live_…) in the production profile: test-mode payments grant nothing real");
  }
  for (const name of ["SESSION_SECRET", "STORAGE_SIGNING_SECRET"] as const) {
    const value = raw[name];
    if (value && value.length < 32) problems.push(`${name} must be at least 32 characters`);
  }
  return problems;
}

export type Env = Omit<Raw, keyof typeof LOCAL_DEFAULTS | "FIREBASE_GOOGLE_SIGN_IN"> & {
  [K in keyof typeof LOCAL_DEFAULTS]: string;
} & {
  FIREBASE_AUTH_EMULATOR_HOST?: string;
  FIREBASE_GOOGLE_SIGN_IN: boolean;
  isProduction: boolean;
  legacyHosts: string[];
  /** Hosts besides APP_URL's that links may be built on (app/lib/link-origin.server.ts); one without a port stands for any port. */
  linkHosts: string[];
};

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parses an environment (process.env by default). Throws EnvError naming every problem. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = baseSchema.safeParse(source);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const raw = parsed.data;
  if (Boolean(raw.STRIPE_SECRET_KEY) !== Boolean(raw.STRIPE_WEBHOOK_SECRET)) {
    throw new EnvError(["STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together or not at all (payments need both)"]);
  }
  const isProduction = raw.SCANROOM_PROFILE === "production";
  if (isProduction) {
    const problems = productionProblems(raw);
    if (problems.length) throw new EnvError(problems);
  }
  const filled = { ...raw } as Record<string, unknown>;
  if (!isProduction) {
    for (const [key, value] of Object.entries(LOCAL_DEFAULTS)) {
      if (!filled[key]) filled[key] = value;
    }
  }
  // Google sign-in is on by default where it can work: a real Firebase project (issue 35 item 7), not the emulator.
  filled.FIREBASE_GOOGLE_SIGN_IN = raw.FIREBASE_GOOGLE_SIGN_IN ?? (Boolean(filled.FIREBASE_API_KEY) && !filled.FIREBASE_AUTH_EMULATOR_HOST);
  const legacyHosts = commaList(raw.LEGACY_HOSTS.toLowerCase());
  return { ...(filled as Env), isProduction, legacyHosts, linkHosts: linkHostsOf({ legacyHosts, port: raw.PORT, isProduction }) };
}

/**
 * The allow list of link hosts besides APP_URL's (docs/decisions/039): the legacy hosts, and in the local profile
 * this server's own port on the loopback names (a site opened at 127.0.0.1 gets links that work there).
 */
function linkHostsOf({ legacyHosts, port, isProduction }: { legacyHosts: string[]; port: number; isProduction: boolean }): string[] {
  const loopback = isProduction ? [] : ["127.0.0.1", "localhost", "[::1]"].map((name) => new URL(`http://${name}:${port}`).host);
  return [...legacyHosts, ...loopback];
}

let cached: Env | undefined;

/** The validated environment of this process. Also exports the emulator host for firebase-admin. */
export function env(): Env {
  if (!cached) {
    cached = parseEnv();
    if (cached.FIREBASE_AUTH_EMULATOR_HOST) {
      process.env.FIREBASE_AUTH_EMULATOR_HOST = cached.FIREBASE_AUTH_EMULATOR_HOST;
    }
  }
  return cached;
}

/**
 * The subset of configuration the browser may see. Never put a secret here. `linkOrigin`: the request's link
 * origin (app/lib/link-origin.server.ts), which share links and embed codes are built on (docs/decisions/047);
 * APP_URL's origin outside a request.
 */
export function publicEnv(linkOrigin?: string) {
  const e = env();
  return {
    appUrl: e.APP_URL,
    shareOrigin: linkOrigin ?? new URL(e.APP_URL).origin,
    profile: e.SCANROOM_PROFILE,
    firebase: {
      apiKey: e.FIREBASE_API_KEY,
      authDomain: e.FIREBASE_AUTH_DOMAIN ?? `${e.FIREBASE_PROJECT_ID}.firebaseapp.com`,
      projectId: e.FIREBASE_PROJECT_ID,
      emulatorHost: e.FIREBASE_AUTH_EMULATOR_HOST ?? null,
      googleSignIn: e.FIREBASE_GOOGLE_SIGN_IN,
    },
    modelXorKey: e.MODEL_XOR_KEY,
    shopifyListingUrl: e.SHOPIFY_APP_LISTING_URL,
    termsUrl: e.TERMS_URL,
    websiteUrl: e.WEBSITE_URL,
    sentryDsn: e.SENTRY_DSN ?? null,
    sentryEnvironment: e.SENTRY_ENVIRONMENT ?? e.SCANROOM_PROFILE,
  };
}
export type PublicEnv = ReturnType<typeof publicEnv>;

/**
 * The scan worker's settings (docs/scan-worker.md explains each for a GPU worker).
 */
const seconds = (fallback: number) => z.coerce.number().positive().default(fallback);

const workerSchema = z.object({
  /** Where jobs' working files live (per job, removed after publishing). */
  SCAN_WORK_DIR: z.string().default(".data/scan-work"),
  /** Scans run at once by this worker (each uses every core it is given). */
  SCAN_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  /** Threads each tool may use. */
  SCAN_THREADS: z.coerce.number().int().min(1).default(Math.max(1, os.availableParallelism?.() ?? os.cpus().length)),
  /** A job whose heartbeat is older than this belongs to a dead worker and may be taken over. */
  SCAN_LEASE_SECONDS: seconds(60),
  SCAN_HEARTBEAT_SECONDS: seconds(10),
  /** How long a queued scan may wait before an idle worker takes it even without a queue message. */
  SCAN_STALE_QUEUED_SECONDS: seconds(300),
  SCAN_STAGE_TIMEOUT_SECONDS: seconds(2 * 60 * 60),
  SCAN_JOB_TIMEOUT_SECONDS: seconds(5 * 60 * 60),
  SCAN_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(3),
  /** Free disk space needed to start a job, besides 6× its input size. */
  SCAN_MIN_FREE_MB: z.coerce.number().int().min(0).default(1024),
  /**
   * A GPU trainer as a template, e.g. `python simple_trainer.py default --data_dir {dataset} --result_dir {output}`.
   * Placeholders: {dataset} {images} {sparse} {output} {holdout} {renders} {iterations} {threads}.
   */
  SCAN_TRAINER_COMMAND: optionalString,
  SCAN_TRAINER_TIMEOUT_SECONDS: seconds(3 * 60 * 60),
  /**
   * Our CPU trainer (native/train, issue 15), used when no SCAN_TRAINER_COMMAND is set: its wall-clock
   * budget (0 = no training: the splat is built from the points), an iteration cap, how often it
   * checkpoints (mirrored to storage, so another worker resumes), and its training resolution.
   */
  SCAN_TRAIN_MINUTES: z.coerce.number().min(0).max(24 * 60).default(6),
  SCAN_TRAIN_MAX_ITERATIONS: z.coerce.number().int().positive().default(30_000),
  SCAN_TRAIN_CHECKPOINT_SECONDS: seconds(120),
  SCAN_TRAIN_LONG_SIDE: z.coerce.number().int().min(64).max(4096).default(480),
  /**
   * Highest spherical-harmonics degree the trainer raises colours to (0–3). 0 by default: a degree-3 splat
   * trains and renders, but its .sog delivery copy (splat-transform's SH compression) took 290–448 s for 28k
   * splats here, past the delivery time limit, so scans would publish without the compact copy.
   */
  SCAN_TRAIN_SH_DEGREE: z.coerce.number().int().min(0).max(3).default(0),
  /** Weight λ of the D-SSIM term in the trainer's loss, (1 − λ)·L1 + λ·(1 − SSIM). */
  SCAN_TRAIN_SSIM_WEIGHT: z.coerce.number().min(0).max(1).default(0.2),
  /**
   * Opacity reset (3DGS): every this fraction of the budget, while densification runs (its first 70 %), the
   * trainer lowers every opacity to 0.01 so floaters must earn theirs back or be pruned; 0 turns it off.
   * Off by default: the paper resets every 3,000 of 30,000 iterations, and our CPU budgets run hundreds to a
   * few thousand — on the CI set's 3 minutes (≈390 iterations) resets at 0.175 cost 3.1 dB held-out
   * (28.40 → 25.29 dB, measured side by side, docs/scan-worker.md).
   */
  SCAN_TRAIN_OPACITY_RESET_EVERY: z.coerce.number().min(0).max(1).default(0),
  SCAN_TRAINER_ITERATIONS: z.coerce.number().int().positive().default(30_000),
  /**
   * How a set of more than 16 photos is matched (decision 052): "overlap" matches the pairs a quick pre-pass
   * finds; "exhaustive" matches as before it — every pair at full detail up to 80 photos (3–4× slower on 25–50
   * photos), neighbours in capture order and keyframes above — for sets the pre-pass cannot tie together.
   */
  SCAN_PHOTO_MATCHING: z.enum(["overlap", "exhaustive"]).default("overlap"),
  /** Dense stereo and fusion (issue 14): on by default; off publishes from the sparse points only. */
  SCAN_DENSE: z.enum(["on", "off"]).default("on"),
  /** The Poisson mesh export (CPU): on by default, time-boxed; a slow or failed mesh only skips the GLB. */
  SCAN_MESH: z.enum(["on", "off"]).default("on"),
  SCAN_MESH_TIMEOUT_SECONDS: seconds(180),
  SCAN_MESH_DEPTH: z.coerce.number().int().min(5).max(12).default(8),
  /** Folder of our native programs (native/, built by `npm run native:build`). */
  SCANROOM_NATIVE_BIN: z.string().default(path.join(process.cwd(), "native/build/bin")),
  COLMAP_BIN: z.string().default("colmap"),
  FFMPEG_BIN: z.string().default("ffmpeg"),
  FFPROBE_BIN: z.string().default("ffprobe"),
  /** Seconds between a tool's SIGTERM and SIGKILL when a scan is cancelled. */
  SCAN_KILL_GRACE_SECONDS: seconds(10),
});

export type WorkerConfig = z.infer<typeof workerSchema> & { workDir: string };

let cachedWorker: WorkerConfig | undefined;

export function parseWorkerConfig(source: Record<string, string | undefined> = process.env): WorkerConfig {
  const parsed = workerSchema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`Invalid scan worker configuration:\n${parsed.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`).join("\n")}`);
  }
  return { ...parsed.data, workDir: path.resolve(parsed.data.SCAN_WORK_DIR) };
}

export function workerConfig(): WorkerConfig {
  cachedWorker ??= parseWorkerConfig();
  return cachedWorker;
}

/** Which trainer the splat stage runs (stages/splat.server.ts), as the worker's start-up line says it. */
export function describeTrainer(config: Pick<WorkerConfig, "SCAN_TRAINER_COMMAND" | "SCAN_TRAIN_MINUTES">): string {
  if (config.SCAN_TRAINER_COMMAND) return "SCAN_TRAINER_COMMAND (external, e.g. a GPU trainer)";
  if (config.SCAN_TRAIN_MINUTES === 0) return "none: SCAN_TRAIN_MINUTES=0, splats built from the points";
  return `ours on the CPU (native/train), up to ${config.SCAN_TRAIN_MINUTES} min per scan`;
}
