// What the load bench's visitors look at: 1,000 public, ready models from 40 creators, whose files are real
// models of shared/data (a 223 kB and a 3.6 MB GLB) written to the run's store through the app's own driver.
import { readFileSync } from "node:fs";
import path from "node:path";
import { SHARED_DATA } from "../../tests/setup/shared-data";
import { insertPublicModels } from "../bench-support";

const MODELS = ["SpecularTest.glb", "cat.glb"];

export async function seedPublicModels(databaseUrl: string, count = 1000): Promise<{ itemIds: string[]; itemViews: number[]; categorySlugs: string[] }> {
  const { storage } = await import("~/storage/index.server");
  const files: Array<{ key: string; size: number }> = [];
  for (let i = 0; i < 20; i++) {
    const bytes = readFileSync(path.join(SHARED_DATA, "models", MODELS[i % MODELS.length]));
    const key = `items/load-seed/${i}.glb`;
    await storage().write(key, bytes, { contentType: "model/gltf-binary" });
    files.push({ key, size: bytes.length });
  }
  return insertPublicModels(databaseUrl, { count, owners: 40, spacingMs: 3_600_000, fileOf: (i) => files[i % files.length] });
}
