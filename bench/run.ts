// `npm run bench`: runs every bench/*.bench.ts in turn. Benchmarks print figures; none passes or fails on time.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n=== ${file} ===\n`);
  const result = spawnSync(path.join(dir, "../node_modules/.bin/tsx"), [path.join(dir, file)], { stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    failed++;
    process.stdout.write(`${file} did not finish (exit ${result.status ?? result.signal})\n`);
  }
}
process.exit(failed === 0 ? 0 : 1);
