/** Checks of the 12-byte GLB header (glTF 2.0 binary container): magic, version, total length. */

/** Returns why `bytes` is not a complete GLB file, or null when the header is consistent. */
export function glbIntegrityProblem(bytes: ArrayBuffer): string | null {
  if (bytes.byteLength < 20) return "the GLB file is too short";
  const view = new DataView(bytes);
  if (view.getUint32(0, true) !== 0x46546c67 /* "glTF" */) return "the file is not a GLB";
  const version = view.getUint32(4, true);
  if (version !== 2) return `GLB version ${version} is not supported (only glTF 2.0)`;
  const declared = view.getUint32(8, true);
  if (declared > bytes.byteLength) return `the GLB file is truncated: ${bytes.byteLength} of ${declared} bytes`;
  return null;
}
