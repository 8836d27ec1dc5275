#!/usr/bin/env node
// `npm test`: typecheck, lint, unit, integration (real PostgreSQL + Auth emulator + HTTP) and
// end-to-end (Chromium) tests, then one summary line. Every step runs; any failure fails the run.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import net from "node:net";
import { log, root, startAuthEmulator, startEmbeddedPostgres } from "./lib/services.mjs";

const reports = path.join(root, "tests/.tmp/reports");
mkdirSync(reports, { recursive: true });
const bin = (name) => path.join(root, "node_modules/.bin", name);

function step(name, command, args, env = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    log(`── ${name}`);
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      log(`── ${name}: ${code === 0 ? "ok" : `FAILED (${code})`} in ${seconds}s`);
      resolve({ name, ok: code === 0, seconds });
    });
  });
}

function vitestCounts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1 };
  const report = JSON.parse(readFileSync(file, "utf8"));
  return { passed: report.numPassedTests ?? 0, failed: (report.numFailedTests ?? 0) + (report.numTotalTestSuites && !report.success && !report.numFailedTests ? 1 : 0) };
}

function playwrightCounts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1 };
  const stats = JSON.parse(readFileSync(file, "utf8")).stats ?? {};
  return { passed: stats.expected ?? 0, failed: (stats.unexpected ?? 0) + (stats.flaky ?? 0) };
}

/** The names of the tests that failed, with the first line of why, so the run's last lines say which. */
function vitestFailures(file) {
  if (!existsSync(file)) return [];
  const report = JSON.parse(readFileSync(file, "utf8"));
  return (report.testResults ?? []).flatMap((suite) => {
    const where = path.relative(root, suite.name ?? "");
    const tests = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
    if (tests.length === 0 && suite.status === "failed") return [`${where}: ${firstLine(suite.message)}`];
    return tests.map((t) => `${where} › ${t.fullName ?? t.title}: ${firstLine(t.failureMessages?.[0])}`);
  });
}

function playwrightFailures(file) {
  if (!existsSync(file)) return [];
  const out = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === "unexpected" || test.status === "flaky") {
          const error = test.results?.find((r) => r.error)?.error?.message;
          out.push(`${spec.file}:${spec.line} › ${spec.title} (${test.status}): ${firstLine(error)}`);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of JSON.parse(readFileSync(file, "utf8")).suites ?? []) walk(suite);
  return out;
}

function firstLine(text) {
  // eslint-disable-next-line no-control-regex
  const line = String(text ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").find((l) => l.trim()) ?? "";
  return line.trim().slice(0, 300);
}

/** ctest's JUnit report: one <testcase> per native test, failures marked status="fail". */
function nativeCounts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1 };
  const cases = readFileSync(file, "utf8").match(/<testcase\b[^>]*>/g) ?? [];
  const failed = cases.filter((c) => /status="fail"/.test(c)).length;
  return { passed: cases.length - failed, failed };
}

function reachable(port, host = "127.0.0.1") {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once("connect", () => socket.end(() => resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

// Tests use the machine's PostgreSQL (CI: 127.0.0.1:5432, database test). A machine without one
// gets an embedded PostgreSQL for the run, so the test command needs nothing else.
let stopPostgres = async () => {};
if (!process.env.TEST_DATABASE_URL && !(await reachable(5432))) {
  log("no PostgreSQL on 127.0.0.1:5432: starting an embedded one for the tests");
  const pg = await startEmbeddedPostgres({ dataDir: "tests/.tmp/postgres", port: 54330, database: "test" });
  process.env.TEST_DATABASE_URL = pg.url;
  stopPostgres = pg.stop;
}

const results = [];
results.push(await step("native build", "node", ["scripts/build-native.mjs"]));
results.push(
  await step("native tests", "ctest", ["--test-dir", "native/build", "--output-on-failure", "--output-junit", `${reports}/native.xml`, "--parallel", "2"]),
);
results.push(await step("typecheck", "npm", ["run", "--silent", "typecheck"]));
results.push(await step("lint", "npm", ["run", "--silent", "lint"]));
results.push(
  await step("unit tests", bin("vitest"), ["run", "--project", "unit", "--reporter=default", "--reporter=json", `--outputFile=${reports}/unit.json`]),
);
results.push(await step("build", "npm", ["run", "--silent", "build"]));

// One Auth emulator for the integration and end-to-end steps (their setups reuse a running one).
const emulatorPort = Number(process.env.TEST_AUTH_EMULATOR_PORT ?? 9199);
log(`starting the Firebase Auth emulator on port ${emulatorPort}`);
const emulator = await startAuthEmulator({ port: emulatorPort, projectId: "demo-scanroom-test", workDir: `tests/.tmp/emulator-${emulatorPort}` });
results.push(
  await step("integration tests", bin("vitest"), [
    "run",
    "--project",
    "integration",
    "--reporter=default",
    "--reporter=json",
    `--outputFile=${reports}/integration.json`,
  ]),
);
results.push(
  await step("end-to-end tests", bin("playwright"), ["test", "--reporter=list,json"], {
    SCANROOM_TEMPLATE_READY: "1",
    PLAYWRIGHT_JSON_OUTPUT_NAME: `${reports}/e2e.json`,
  }),
);

await emulator.stop();
await stopPostgres();

const counts = [
  vitestCounts(`${reports}/unit.json`),
  vitestCounts(`${reports}/integration.json`),
  playwrightCounts(`${reports}/e2e.json`),
  nativeCounts(`${reports}/native.xml`),
];
const passed = counts.reduce((n, c) => n + c.passed, 0);
const failedTests = counts.reduce((n, c) => n + c.failed, 0);
const failedSteps = results.filter((r) => !r.ok);
log("summary of steps:");
for (const r of results) log(`  ${r.ok ? "ok    " : "FAILED"} ${r.name} (${r.seconds}s)`);
log(`unit ${counts[0].passed}/${counts[0].passed + counts[0].failed}, integration ${counts[1].passed}/${counts[1].passed + counts[1].failed}, end-to-end ${counts[2].passed}/${counts[2].passed + counts[2].failed}, native ${counts[3].passed}/${counts[3].passed + counts[3].failed}`);
const failures = [
  ...vitestFailures(`${reports}/unit.json`),
  ...vitestFailures(`${reports}/integration.json`),
  ...playwrightFailures(`${reports}/e2e.json`),
];
if (failures.length > 0) {
  log("failed tests:");
  for (const f of failures) log(`  ✘ ${f}`);
}
const failed = failedTests + (failedSteps.length > 0 && failedTests === 0 ? failedSteps.length : 0);
process.stdout.write(`Summary: ${passed} passed, ${failed} failed\n`);
process.exit(failedSteps.length === 0 && failedTests === 0 ? 0 : 1);
