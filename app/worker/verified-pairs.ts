import { readSqliteTable } from "~/formats/sqlite";

/** Two images and how many of their matches survived COLMAP's geometric verification. */
export interface VerifiedPair {
  a: string;
  b: string;
  inliers: number;
}

/** COLMAP's pair id: image_id1 · 2³¹−1 + image_id2, with image_id1 < image_id2 (its database.cc). */
const PAIR_ID_BASE = 2147483647;

/**
 * The image pairs a COLMAP matcher verified in a database (the `two_view_geometries` table: `rows` is the number
 * of inlier matches, 0 where the pair failed verification), by image name.
 */
export function readVerifiedPairs(database: string): VerifiedPair[] {
  const names = new Map(readSqliteTable(database, "images").map((row) => [Number(row.image_id), String(row.name)]));
  const pairs: VerifiedPair[] = [];
  for (const row of readSqliteTable(database, "two_view_geometries")) {
    const inliers = Number(row.rows);
    if (!(inliers > 0)) continue;
    const id = Number(row.pair_id);
    const second = id % PAIR_ID_BASE;
    const first = (id - second) / PAIR_ID_BASE;
    const a = names.get(first);
    const b = names.get(second);
    if (a === undefined || b === undefined) throw new Error(`${database}: pair ${id} names an image that is not in the database`);
    pairs.push({ a, b, inliers });
  }
  return pairs;
}
