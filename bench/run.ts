// `npm run bench`: runs every bench/*.bench.ts in turn (each prints its own figures; none passes or
// fails on time). A name on the command line runs the bench of that name (`npm run bench load`: load.bench.ts),
// or, when there is none, every bench whose file name contains it.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const dir = path.dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2];
const all = readdirSync(dir).filter((name) => name.endsWith(".bench.ts"));
const benches = all.includes(`${filter}.bench.ts`) ? [`${filter}.bench.ts`] : all.filter((name) => !filter || name.includes(filter)).sort();
let failed = 0;
for (const name of benches) {
  process.stdout.write(`\n== ${name}\n`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(dir, name)], { stdio: "inherit", cwd: path.resolve(dir, "..") });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
