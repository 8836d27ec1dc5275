// What every bench needs besides the app: printing a line, and running SQL as the test PostgreSQL's admin.
import pg from "pg";
import { TEMPLATE_DATABASE, TEST_PG_ADMIN_URL } from "../tests/setup/config";

export function print(line = ""): void {
  process.stdout.write(`${line}\n`);
}

/** Runs one statement on the admin connection (CREATE/DROP DATABASE, catalogue lookups). */
export async function adminQuery(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/** Whether the tests' migrated template database exists (benches clone it instead of migrating). */
export async function templateExists(): Promise<boolean> {
  return (await adminQuery("SELECT 1 FROM pg_database WHERE datname = $1", [TEMPLATE_DATABASE])).rowCount === 1;
}

/** A generated splat scene (.ply, SH degree 0): `count` small opaque splats on a coloured torus of radius 1. */
export function generatePly(count: number): Buffer {
  const properties = ["x", "y", "z", "f_dc_0", "f_dc_1", "f_dc_2", "opacity", "rot_0", "rot_1", "rot_2", "rot_3", "scale_0", "scale_1", "scale_2"];
  const header = `ply\nformat binary_little_endian 1.0\nelement vertex ${count}\n${properties.map((p) => `property float ${p}\n`).join("")}end_header\n`;
  const body = new Float32Array(count * properties.length);
  let seed = 42;
  const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  for (let i = 0; i < count; i++) {
    const u = random() * Math.PI * 2;
    const v = random() * Math.PI * 2;
    const r = 0.35 + 0.05 * Math.sin(5 * u);
    const o = i * properties.length;
    body[o] = (1 + r * Math.cos(v)) * Math.cos(u);
    body[o + 1] = r * Math.sin(v);
    body[o + 2] = (1 + r * Math.cos(v)) * Math.sin(u);
    body[o + 3] = Math.cos(u) * 1.5; // colour (SH DC): varies around the ring
    body[o + 4] = Math.sin(v) * 1.5;
    body[o + 5] = Math.sin(u) * 1.5;
    body[o + 6] = 3; // opacity logit ≈ 0.95
    body[o + 7] = 1; // identity rotation (w, x, y, z)
    body[o + 11] = body[o + 12] = body[o + 13] = Math.log(0.006 + random() * 0.004);
  }
  return Buffer.concat([Buffer.from(header, "ascii"), Buffer.from(body.buffer)]);
}
