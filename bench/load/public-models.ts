// What the load bench's visitors look at: 1,000 public, ready models from 40 creators, whose files are real
// models of shared/data (a 223 kB and a 3.6 MB GLB) written to the run's store through the app's own driver.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { SHARED_DATA } from "../../tests/setup/shared-data";

const MODELS = ["SpecularTest.glb", "cat.glb"];

export async function seedPublicModels(databaseUrl: string, count = 1000): Promise<{ itemIds: string[]; categorySlugs: string[] }> {
  const { storage } = await import("~/storage/index.server");
  const files: Array<{ key: string; size: number }> = [];
  for (let i = 0; i < 20; i++) {
    const bytes = readFileSync(path.join(SHARED_DATA, "models", MODELS[i % MODELS.length]));
    const key = `items/load-seed/${i}.glb`;
    await storage().write(key, bytes, { contentType: "model/gltf-binary" });
    files.push({ key, size: bytes.length });
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const categories = (await client.query<{ id: string; slug: string }>('SELECT id, slug FROM "Category" ORDER BY "sortOrder"')).rows;
    const owners: string[] = [];
    for (let i = 0; i < 40; i++) {
      const id = randomUUID();
      owners.push(id);
      await client.query(
        'INSERT INTO "User" (id, "firebaseUid", email, "emailVerified", "displayName", "updatedAt") VALUES ($1, $2, $3, true, $4, now())',
        [id, `load-${id}`, `load-${i}@example.com`, `Creator ${i}`],
      );
    }
    const words = ["chair", "vase", "statue", "shoe", "plant", "lamp", "mug", "temple", "bike", "rock"];
    const itemIds: string[] = [];
    const values: unknown[] = [];
    const rows: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      itemIds.push(id);
      const file = files[i % files.length];
      const p = values.length;
      rows.push(
        `($${p + 1}::uuid, $${p + 2}::uuid, $${p + 3}, 'glb', 'model', 'ready', 'public', $${p + 4}, $${p + 5}, $${p + 6}::uuid, $${p + 7}, $${
          p + 8
        }, $${p + 8})`,
      );
      values.push(
        id,
        owners[i % owners.length],
        `${words[i % words.length]} ${words[(i * 7) % words.length]} #${i}`,
        file.key,
        file.size,
        categories[i % categories.length].id,
        Math.floor(10_000 / (1 + (i % 97))),
        new Date(Date.now() - i * 3_600_000),
      );
    }
    await client.query(
      `INSERT INTO "Item" (id, "ownerId", name, "modelType", "uploadType", status, visibility, "fileKey", "fileSize", "categoryId", "viewCount", "createdAt", "updatedAt") VALUES ${rows.join(
        ",",
      )}`,
      values,
    );
    await client.query('ANALYZE "Item"');
    return { itemIds, categorySlugs: categories.map((c) => c.slug) };
  } finally {
    await client.end();
  }
}
