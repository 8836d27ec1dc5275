import validator from "gltf-validator";

/**
 * Khronos' glTF validator on a GLB we are about to publish: any error (not warnings) refuses it,
 * naming the first few problems. Answers the validator's own triangle count.
 */
export async function assertValidGltf(glb: Uint8Array): Promise<{ warnings: number; triangles: number | null }> {
  const report = await validator.validateBytes(glb, { maxIssues: 50, format: "glb" });
  if (report.issues.numErrors > 0) {
    const first = report.issues.messages
      .filter((m) => m.severity === 0)
      .slice(0, 3)
      .map((m) => `${m.code}${m.pointer ? ` at ${m.pointer}` : ""}: ${m.message}`);
    throw new Error(`the GLB fails glTF validation (${report.issues.numErrors} errors): ${first.join("; ")}`);
  }
  return { warnings: report.issues.numWarnings, triangles: report.info?.totalTriangleCount ?? null };
}
