// The parts of gltf-validator (Khronos' reference validator, compiled to JS) we call; it ships no types.
declare module "gltf-validator" {
  export interface ValidationReport {
    issues: { numErrors: number; numWarnings: number; messages: Array<{ code: string; message: string; severity: number; pointer?: string }> };
    info?: { drawCallCount?: number; totalVertexCount?: number; totalTriangleCount?: number };
  }
  const validator: {
    validateBytes(data: Uint8Array, options?: { maxIssues?: number; format?: "glb" | "gltf" }): Promise<ValidationReport>;
  };
  export default validator;
}
