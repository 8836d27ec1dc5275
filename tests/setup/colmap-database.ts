import { readSqliteTable } from "~/formats/sqlite";

/** The `cameras` table of a COLMAP database (app/formats/sqlite reads it). */
export interface ColmapDatabaseCamera {
  cameraId: number;
  /** COLMAP's camera model id (2: SIMPLE_RADIAL). */
  model: number;
  width: number;
  height: number;
  /** The camera's parameters (for SIMPLE_RADIAL: f, cx, cy, k). */
  params: number[];
  /** 1 when the focal length came from the image's EXIF. */
  priorFocalLength: number;
}

/** The cameras COLMAP's feature extractor wrote into a database. */
export function readColmapCameras(file: string): ColmapDatabaseCamera[] {
  return readSqliteTable(file, "cameras").map((row) => {
    const blob = row.params as Uint8Array;
    const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
    return {
      cameraId: Number(row.camera_id),
      model: Number(row.model),
      width: Number(row.width),
      height: Number(row.height),
      params: Array.from({ length: blob.byteLength / 8 }, (_, i) => view.getFloat64(i * 8, true)),
      priorFocalLength: Number(row.prior_focal_length),
    };
  });
}
