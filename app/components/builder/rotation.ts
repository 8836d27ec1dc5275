/**
 * Rotations for the Builder's number fields: quaternions (x, y, z, w; what scenes store) to and from Euler
 * angles in degrees, in three.js's default "XYZ" order, so the fields agree with the gizmo. Pure maths.
 */
export type Quat = [number, number, number, number];
export type Degrees3 = [number, number, number];

const RAD = Math.PI / 180;

export function quaternionFromDegrees([x, y, z]: Degrees3): Quat {
  const [c1, c2, c3] = [Math.cos((x * RAD) / 2), Math.cos((y * RAD) / 2), Math.cos((z * RAD) / 2)];
  const [s1, s2, s3] = [Math.sin((x * RAD) / 2), Math.sin((y * RAD) / 2), Math.sin((z * RAD) / 2)];
  return [
    s1 * c2 * c3 + c1 * s2 * s3,
    c1 * s2 * c3 - s1 * c2 * s3,
    c1 * c2 * s3 + s1 * s2 * c3,
    c1 * c2 * c3 - s1 * s2 * s3,
  ];
}

export function degreesFromQuaternion([qx, qy, qz, qw]: Quat): Degrees3 {
  const length = Math.hypot(qx, qy, qz, qw) || 1;
  const [x, y, z, w] = [qx / length, qy / length, qz / length, qw / length];
  // Rotation matrix elements used by the XYZ decomposition.
  const m11 = 1 - 2 * (y * y + z * z);
  const m12 = 2 * (x * y - z * w);
  const m13 = 2 * (x * z + y * w);
  const m22 = 1 - 2 * (x * x + z * z);
  const m23 = 2 * (y * z - x * w);
  const m32 = 2 * (y * z + x * w);
  const m33 = 1 - 2 * (x * x + y * y);
  const ey = Math.asin(Math.min(1, Math.max(-1, m13)));
  let ex: number;
  let ez: number;
  if (Math.abs(m13) < 0.9999999) {
    ex = Math.atan2(-m23, m33);
    ez = Math.atan2(-m12, m11);
  } else {
    ex = Math.atan2(m32, m22);
    ez = 0;
  }
  const round = (radians: number) => Math.round((radians / RAD) * 1000) / 1000 + 0; // + 0: no "-0"
  return [round(ex), round(ey), round(ez)];
}
