// `npm run bench load` (issue 37): the production build under many people at once, on this machine only.
// For LOAD_SECONDS (300), visitors (front door, explore, model pages, embeds, model downloads, oEmbed; rate-held
// keep-alive clients held to LOAD_RATE GETs per second, 300; models picked as often as their view counts say, or evenly with
// LOAD_POPULARITY=uniform; only some kinds with LOAD_KINDS) and LOAD_CREATORS creators (50; sign in, create items, upload 5–20 MB models through
// signed links, edit, request video scans and poll them) work at once; with local disk and with
// the S3 server; then the same with the web process killed -9 halfway and started again (with several, the one for
// signed-in work, or one for visitors with LOAD_KILL=visitors). Prints throughput and
// p50/p95/p99 per kind of request, errors, the web process's memory over time, and checks afterwards that
// every acknowledged upload downloads byte-identical and that no scan credit was lost or spent twice.
// Figures only, no pass/fail on time; the goals (≥ 300 GETs/s, p99 ≤ 250 ms, no 5xx; 50 concurrent uploads,
// nothing lost) are printed beside them.
//
//   npx tsx bench/load.bench.ts [local|s3|both] [steady|kill|both]
//
// Needs a build (`npm run build`), PostgreSQL (TEST_DATABASE_URL) and ffmpeg; starts the Auth emulator unless
// one runs on TEST_AUTH_EMULATOR_PORT. Scratch databases and stores are removed afterwards. No worker runs:
// scans stay queued, which is what their status polls see.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import pg from "pg";
import { EMULATOR_HOST, FIREBASE_PROJECT_ID } from "../tests/setup/config";
import { createDatabaseFromTemplate, dropDatabase, prepareTemplateDatabase } from "../tests/setup/services";
import { cpuSeconds, freePort, machineBusySeconds, residentMiB, serverChildPids, webProcessKindOf } from "../tests/setup/processes";
import { buildDir, exitUnlessBuilt, root } from "./app-server";
import { print, templateExists } from "./bench-support";
import { formatFigures, formatWindows, LatencyBook, WINDOW_SECONDS } from "./load/latency-book";
import type { VisitorPlan, VisitorResult } from "./load/visitors";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 300);
const RATE = Number(process.env.LOAD_RATE ?? 300);
/** How visitors pick the model they look at: `zipf` (as often as its view count says: a few models get most visits) or `uniform` (every model alike; the worst case for any cache). */
const POPULARITY = process.env.LOAD_POPULARITY === "uniform" ? "uniform" : "zipf";
/** Which kind of web process the kill mode kills where there are several: signed-in work's (the default) or a visitors' one. */
const KILL_KIND = process.env.LOAD_KILL === "visitors" ? "visitors" : "signed-in";
const CREATORS = Number(process.env.LOAD_CREATORS ?? 50);
/** LOAD_KINDS=download,oEmbed: only the visitor kinds whose names contain one of these (to look at one kind alone). */
const KINDS = (process.env.LOAD_KINDS ?? "").split(",").map((part) => part.trim()).filter(Boolean);
/** The web processes sharing the port (WEB_PROCESSES): two, one per core, unless told otherwise. */
const WEB_PROCESSES = Number(process.env.LOAD_WEB_PROCESSES ?? 2);
const XOR_KEY = "load-bench-xor-key";
const stores = process.argv[2] ?? "both";
const modes = process.argv[3] ?? "both";

exitUnlessBuilt();
if (stores === "both" || modes === "both") {
  // The app's storage driver is fixed per process: one child per store and mode.
  for (const store of stores === "both" ? ["local", "s3"] : [stores]) {
    for (const mode of modes === "both" ? ["steady", "kill"] : [modes]) {
      const run = spawnSync(process.execPath, ["--import", "tsx", process.argv[1], store, mode], { stdio: "inherit", cwd: root });
      if (run.status !== 0) process.exit(run.status ?? 1);
    }
  }
  process.exit(0);
}

const work = mkdtempSync(path.join(os.tmpdir(), "scanroom-load-"));
const database = `scanroom_load_${randomBytes(4).toString("hex")}`;
const cleanups: Array<() => Promise<unknown> | unknown> = [() => rmSync(work, { recursive: true, force: true })];


/** The S3 server in its own process; resolves with the app's S3 settings. */
async function startS3(): Promise<Record<string, string>> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "bench/load/s3-process.ts"), path.join(work, "s3")], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  cleanups.push(() => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : (child.once("exit", resolve), child.kill("SIGTERM")))));
  const line = await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once("line", resolve));
  const s3 = JSON.parse(line);
  return {
    STORAGE_DRIVER: "s3",
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: "true",
  };
}

/** A 2-second 320×180 video (what the creators' scans are requested on). */
function makeVideo(): Uint8Array<ArrayBuffer> {
  const file = path.join(work, "clip.mp4");
  const made = spawnSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x180:rate=15", "-t", "2", "-pix_fmt", "yuv420p", file]);
  if (made.status !== 0) throw new Error(`ffmpeg could not make the test video: ${made.stderr}`);
  return new Uint8Array(readFileSync(file));
}

/** Transactions committed or rolled back in the database of `url` so far (PostgreSQL's statistics: seconds behind at most). */
async function databaseTransactions(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>("SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()");
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

async function main() {
  const store = stores;
  const mode = modes;
  if (!(await templateExists())) await prepareTemplateDatabase();
  const databaseUrl = await createDatabaseFromTemplate(database);
  cleanups.push(() => dropDatabase(database));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const storeEnv = store === "s3" ? await startS3() : { STORAGE_DIR: path.join(work, "storage") };
  const appEnv: Record<string, string> = {
    ...storeEnv,
    DATABASE_URL: databaseUrl,
    APP_URL: origin,
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    SCANROOM_BUILD_DIR: buildDir,
    FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
    FIREBASE_PROJECT_ID,
    MODEL_XOR_KEY: XOR_KEY,
    WEB_PROCESSES: String(WEB_PROCESSES),
  };
  // This process writes the public models through the app's storage driver, with the web process's settings.
  Object.assign(process.env, appEnv);
  const { ensureAuthEmulator } = await import("../tests/setup/services");
  cleanups.push(await ensureAuthEmulator());
  const { seedPublicModels } = await import("./load/public-models");
  const { itemIds, itemViews, categorySlugs } = await seedPublicModels(databaseUrl);
  const video = makeVideo();

  const { startWebProcess, waitUntilReady } = await import("./load/web-process");
  const logFile = path.join(work, "web.log");
  let web = await startWebProcess({ port, env: appEnv, logFile });
  cleanups.push(() => web.stop());

  // The creators: real accounts in the Auth emulator, each signed in once (their user rows) and given 1,000 scan credits.
  const { createIdentity, signInWithPassword } = await import("../tests/setup/firebase-users");
  const { runCreators } = await import("./load/creators");
  type Account = import("./load/creators").CreatorAccount;
  const accounts: Account[] = [];
  const granted = new Map<Account, number>();
  const ledger = new pg.Client({ connectionString: databaseUrl });
  await ledger.connect();
  for (let i = 0; i < CREATORS; i++) {
    const identity = await createIdentity({ name: `Load creator ${i}` });
    const session = await fetch(`${origin}/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ idToken: identity.idToken }),
    }).then((r) => r.json());
    const account = {
      email: identity.email,
      password: identity.password,
      userId: session.data.user_id as string,
    };
    await ledger.query(
      `INSERT INTO "LedgerEntry" (id, "userId", "creditType", bucket, kind, amount, reason, reference, "idempotencyKey") VALUES (gen_random_uuid(), $1, 'scan', 'topup', 'topup', 1000, 'load bench', 'load-bench', $2)`,
      [account.userId, `load-bench:${account.userId}`],
    );
    const quotas = await fetch(`${origin}/v1/user/quotas`, {
      headers: { Authorization: `Bearer ${identity.idToken}` },
    }).then((r) => r.json());
    granted.set(account, quotas.data.total_scan_credit);
    accounts.push(account);
  }
  await ledger.end();
  const tokens = new Map<Account, string>();
  const tokenOf = async (account: Account) =>
    tokens.get(account) ?? tokens.set(account, await signInWithPassword(account.email, account.password)).get(account)!;

  print(`\n## ${store === "s3" ? "S3 server" : "local disk"}, ${mode === "kill" ? "a web process killed -9 halfway" : "steady"}`);
  print(
    `${SECONDS} s; visitors held to ${RATE} GETs/s over ${itemIds.length} public models (${POPULARITY === "zipf" ? "picked as often as their Zipf-like view counts say" : "picked uniformly (LOAD_POPULARITY=uniform)"}); ` +
      `${CREATORS} creators; ${WEB_PROCESSES} web process${WEB_PROCESSES > 1 ? "es" : ""} on ${origin}`,
  );

  // Memory of the server process and its web processes together, every 5 s (null while it is down).
  const started = Date.now();
  const memory: Array<{ at: number; mib: number | null }> = [];
  const webMiB = () => {
    const [own, ...workers] = [web.pid, ...serverChildPids(web.pid)].map(residentMiB);
    return own === null ? null : own + workers.reduce<number>((sum, mib) => sum + (mib ?? 0), 0);
  };
  const sampler = setInterval(() => memory.push({ at: (Date.now() - started) / 1000, mib: webMiB() }), 5000);
  // CPU seconds of the server process and its web processes (with the renderers they ran, and a killed one once its
  // supervisor reaped it), and of the whole machine: per answered request, steadier across noisy runs than latency.
  const webCpu = () => [web.pid, ...serverChildPids(web.pid)].reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);
  const cpuAtStart = { web: webCpu(), machine: machineBusySeconds() };
  // PostgreSQL's transactions in the scratch database (a statement outside a transaction is one): per answered
  // request, how many times the app waited on the database.
  const transactionsAtStart = await databaseTransactions(databaseUrl);

  const planFile = path.join(work, "visitors-plan.json");
  const resultFile = path.join(work, "visitors-result.json");
  const plan: VisitorPlan = {
    origin,
    startedAt: started,
    seconds: SECONDS,
    rate: RATE,
    itemIds,
    itemWeights: POPULARITY === "zipf" ? itemViews : itemIds.map(() => 1),
    categorySlugs,
    kinds: KINDS,
  };
  writeFileSync(planFile, JSON.stringify(plan));
  const visitors = spawn(process.execPath, ["--import", "tsx", path.join(root, "bench/load/visitors.ts"), planFile, resultFile], {
    cwd: root,
    stdio: "inherit",
  });
  const visitorsDone = new Promise<number | null>((resolve) => visitors.once("exit", resolve));

  const book = new LatencyBook(started);
  const until = started + SECONDS * 1000;
  const creatorsDone = runCreators({
    origin,
    accounts,
    signIn: (account) => signInWithPassword(account.email, account.password),
    until,
    retryUntil: until + 60_000,
    book,
    video,
  });

  // Halfway: SIGKILL one web process. With several, their supervisor starts another while the rest answer: the one
  // for signed-in work where there is one (it receives the uploads and spends the credits, decision 064), or with
  // LOAD_KILL=visitors one for visitors (its replacement warms itself before it serves, decision 068). With one,
  // the bench starts it again as a supervisor (scripts/start.mjs) would.
  let outage: { killedAt: number; readyAt: number; victim: number; kind?: string } | null = null;
  if (mode === "kill") {
    await new Promise((resolve) => setTimeout(resolve, (SECONDS * 1000) / 2));
    const killedAt = (Date.now() - started) / 1000;
    const before = serverChildPids(web.pid);
    if (before.length > 0) {
      const victim = before.find((pid) => webProcessKindOf(pid) === KILL_KIND) ?? before[0];
      const kind = webProcessKindOf(victim) ?? undefined;
      process.kill(victim, "SIGKILL");
      while (serverChildPids(web.pid).filter((pid) => !before.includes(pid)).length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      await waitUntilReady(origin);
      outage = { killedAt, readyAt: (Date.now() - started) / 1000, victim, kind };
    } else {
      const victim = web.pid;
      await web.kill9();
      web = await startWebProcess({ port, env: appEnv, logFile });
      outage = { killedAt, readyAt: (Date.now() - started) / 1000, victim };
    }
  }

  const [creators, visitorsExit] = await Promise.all([creatorsDone, visitorsDone]);
  clearInterval(sampler);
  const cpuUsed = { web: webCpu() - cpuAtStart.web, machine: machineBusySeconds() - cpuAtStart.machine };
  const transactions = (await databaseTransactions(databaseUrl)) - transactionsAtStart;
  const creatorSeconds = (Date.now() - started) / 1000;
  if (visitorsExit !== 0) throw new Error(`the visitors' process ended with ${visitorsExit}`);
  const seen = JSON.parse(readFileSync(resultFile, "utf8")) as VisitorResult;

  print("\nvisitors (rate-held keep-alive clients):");
  print(formatFigures([...seen.figures, seen.total]));
  print(`p99 of all visitor GETs (ms), every ${WINDOW_SECONDS} s: ${formatWindows(seen.windows)}`);
  print(`p99 in the first ${WINDOW_SECONDS} s (ms), by kind: ${seen.firstWindowByKind.map(({ kind, p99 }) => `${kind.split(" (")[0]} ${p99.toFixed(0)}`).join(" · ")}`);
  for (const [why, count] of seen.unansweredWhy) print(`  no answer: ${count}× ${why}`);
  if (outage) {
    const bySecond = Object.entries(seen.unansweredBySecond).map(([second, count]) => [Number(second), count] as const);
    const outside = bySecond.filter(([second]) => second < outage.killedAt - 1 || second > outage.readyAt + 1);
    print(
      `web process ${outage.victim}${outage.kind ? ` (${outage.kind})` : ""} killed at ${outage.killedAt.toFixed(1)} s; ${
        WEB_PROCESSES > 1 ? "its replacement started and the site answered" : "started again and ready"
      } ` +
        `at ${outage.readyAt.toFixed(1)} s; visitor requests without an answer outside that window: ${outside.reduce((sum, [, n]) => sum + n, 0)}`,
    );
    print(`  without an answer, by second of the run: ${bySecond.map(([second, count]) => `${second}:${count}`).join(" ")}`);
  }
  print("\ncreators:");
  print(formatFigures([...book.figures(creatorSeconds), book.total("all creator requests", creatorSeconds)]));
  print(`p99 of all creator requests (ms), every ${WINDOW_SECONDS} s: ${formatWindows(book.windows(WINDOW_SECONDS))}`);
  print(`rounds completed ${creators.rounds}, failed ${creators.failedRounds.length}; most PUTs in flight at once: ${creators.maxConcurrentPuts}`);
  for (const failure of creators.failedRounds.slice(0, 10)) print(`  failed: ${failure}`);
  for (const [why, count] of book.unansweredWhy) print(`  no answer (sent again): ${count}× ${why}`);

  print(`\nweb process${WEB_PROCESSES > 1 ? "es' memory (resident, all together" : " memory (resident"}, MiB), every 30 s:`);
  print(
    memory
      .filter((_, i) => i % 6 === 5)
      .map((m) => `${m.at.toFixed(0)} s ${m.mib === null ? "down" : m.mib.toFixed(0)}`)
      .join(" · "),
  );
  const peak = Math.max(...memory.map((m) => m.mib ?? 0));
  print(`peak ${peak.toFixed(0)} MiB`);
  const answered = seen.total.answered + book.total("all creator requests", creatorSeconds).answered;
  print(
    `\nCPU during the run: web process${WEB_PROCESSES > 1 ? "es" : ""} ${cpuUsed.web.toFixed(0)} s, ${((cpuUsed.web * 1000) / answered).toFixed(2)} ms per answered request ` +
      `(${answered}); the machine's ${os.cpus().length} cores busy ${((100 * cpuUsed.machine) / (os.cpus().length * creatorSeconds)).toFixed(0)} % ` +
      `(load generators, the Auth emulator and PostgreSQL too)${mode === "kill" && WEB_PROCESSES === 1 ? "; the killed web process's own CPU is not counted" : ""}`,
  );
  print(`PostgreSQL transactions during the run: ${transactions} (a statement outside a transaction is one), ${(transactions / answered).toFixed(2)} per answered request`);

  const { checkUploads, checkCredits } = await import("./load/verify");
  const uploads = await checkUploads({
    origin,
    uploads: creators.uploads,
    tokenOf,
    xorKey: XOR_KEY,
  });
  print(`\nacknowledged uploads: ${creators.uploads.length}; downloaded byte-identical: ${uploads.identical} of ${uploads.checked}`);
  for (const problem of uploads.problems.slice(0, 10)) print(`  PROBLEM ${problem}`);
  const credits = await checkCredits({
    origin,
    databaseUrl,
    accounts,
    scans: creators.scans,
    grantedOf: (a) => granted.get(a)!,
    tokenOf,
  });
  print(
    `scan requests: ${creators.scans.length} (acknowledged ${credits.acknowledged}, answer lost ${credits.answersLost}); scans in the database ${credits.scansInDatabase}; ` +
      `credit problems: ${credits.problems.length}`,
  );
  for (const problem of credits.problems.slice(0, 10)) print(`  PROBLEM ${problem}`);

  const serverErrors = seen.total.serverErrors + book.total("", creatorSeconds).serverErrors;
  print("\ngoals (2 cores):");
  print(
    `  mixed GETs per second ≥ 300: ${seen.total.perSecond.toFixed(0)}; p99 ≤ 250 ms: ${seen.total.p99.toFixed(
      0,
    )} ms; server errors 0: ${serverErrors}`,
  );
  print(
    `  50 concurrent uploads, nothing lost: ${creators.maxConcurrentPuts} at once; ${uploads.identical} of ${
      creators.uploads.length
    } acknowledged uploads intact; credits ${credits.problems.length === 0 ? "add up" : "DO NOT add up"}`,
  );
  // The web processes' log, kept under .cache/bench/load/ (git-ignored); its warnings and errors summed up by message.
  const kept = path.join(root, ".cache/bench/load", `${store}-${mode}-web.log`);
  mkdirSync(path.dirname(kept), { recursive: true });
  copyFileSync(logFile, kept);
  const messages = new Map<string, number>();
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    const entry = /^\{"level":"(warn|error)".*?"msg":"([^"]*)"/.exec(line);
    if (entry) messages.set(`${entry[1]}: ${entry[2]}`, (messages.get(`${entry[1]}: ${entry[2]}`) ?? 0) + 1);
    else if (/error|exception/i.test(line)) messages.set(`other: ${line.slice(0, 200)}`, (messages.get(`other: ${line.slice(0, 200)}`) ?? 0) + 1);
  }
  print(`web process log (${kept}): ${messages.size === 0 ? "no warnings or errors" : ""}`);
  for (const [message, count] of messages) print(`  ${count}× ${message}`);
}

try {
  await main();
} finally {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  const { disconnectDb } = await import("~/db.server").catch(() => ({
    disconnectDb: async () => {},
  }));
  await disconnectDb().catch(() => {});
}
process.exit(0);
