// What every bench needs besides the app: printing a line, and running SQL as the test PostgreSQL's admin.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { TEMPLATE_DATABASE, TEST_PG_ADMIN_URL } from "../tests/setup/config";

export function print(line = ""): void {
  process.stdout.write(`${line}\n`);
}

/**
 * Public, ready GLB models straight into the database at `url` (no API, no storage): `count` of them from
 * `owners` new creators, one a `spacingMs` older than the next, across the seeded categories, named from a few
 * words, with Zipf-like view counts; `fileOf(i)` names each one's stored file. Answers the item ids (newest
 * first), their view counts and the category slugs.
 */
export async function insertPublicModels(
  url: string,
  { count, owners, spacingMs, fileOf }: { count: number; owners: number; spacingMs: number; fileOf: (i: number) => { key: string; size: number } },
): Promise<{ itemIds: string[]; itemViews: number[]; categorySlugs: string[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const categories = (await client.query<{ id: string; slug: string }>('SELECT id, slug FROM "Category" ORDER BY "sortOrder"')).rows;
    const ownerIds: string[] = [];
    for (let i = 0; i < owners; i++) {
      const id = randomUUID();
      ownerIds.push(id);
      await client.query('INSERT INTO "User" (id, "firebaseUid", email, "emailVerified", "displayName", "updatedAt") VALUES ($1, $2, $3, true, $4, now())', [
        id,
        `bench-${id}`,
        `bench-${i}-${id.slice(0, 8)}@example.com`,
        `Creator ${i}`,
      ]);
    }
    const words = ["chair", "vase", "statue", "shoe", "plant", "car", "room", "bust", "lamp", "mug", "temple", "bike", "cake", "rock"];
    const now = Date.now();
    const itemIds: string[] = [];
    const itemViews: number[] = [];
    for (let start = 0; start < count; start += 1000) {
      const values: unknown[] = [];
      const rows: string[] = [];
      for (let i = start; i < Math.min(count, start + 1000); i++) {
        const p = values.length;
        const id = randomUUID();
        itemIds.push(id);
        itemViews.push(zipfViews(i));
        const file = fileOf(i);
        rows.push(`($${p + 1}::uuid, $${p + 2}::uuid, $${p + 3}, 'glb', 'model', 'ready', 'public', $${p + 4}, $${p + 5}, $${p + 6}::uuid, $${p + 7}, $${p + 8}, $${p + 8})`);
        values.push(
          id,
          ownerIds[i % ownerIds.length],
          `${words[i % words.length]} ${words[(i * 7) % words.length]} #${i}`,
          file.key,
          file.size,
          categories[i % categories.length].id,
          itemViews[i],
          new Date(now - i * spacingMs),
        );
      }
      await client.query(
        `INSERT INTO "Item" (id, "ownerId", name, "modelType", "uploadType", status, visibility, "fileKey", "fileSize", "categoryId", "viewCount", "createdAt", "updatedAt") VALUES ${rows.join(",")}`,
        values,
      );
    }
    await client.query('ANALYZE "Item"');
    await client.query('ANALYZE "User"');
    return { itemIds, itemViews, categorySlugs: categories.map((c) => c.slug) };
  } finally {
    await client.end();
  }
}

/** The seeded models' view counts: Zipf-like (the i-th model's ∝ 1 / (1 + i mod 997)), as popularity on a real site falls off. */
export function zipfViews(i: number): number {
  return Math.floor(10_000 / (1 + (i % 997)));
}

/** Picks one of `values`, each as often as its weight says (a binary search over the running totals), by `random` (0 ≤ x < 1). */
export function weightedPicker<T>(values: T[], weights: number[], random: () => number = Math.random): () => T {
  const totals: number[] = [];
  let sum = 0;
  for (const weight of weights) totals.push((sum += weight));
  return () => {
    const target = random() * sum;
    let low = 0;
    let high = totals.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (totals[middle] > target) high = middle;
      else low = middle + 1;
    }
    return values[low];
  };
}

/** The nearest-rank `q` quantile (0 < q ≤ 1) of ascending `sorted`; NaN when empty. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
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
