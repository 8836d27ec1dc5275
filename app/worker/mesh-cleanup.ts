// Clean-up and decimation of the Poisson surface before it is textured (issue 14): pieces that are not
// part of the subject (small floating components, what the mesher made of stray points) are removed,
// and the surface is simplified to the triangle budget of its level (quadric error metric, meshoptimizer).
import { MeshoptSimplifier } from "meshoptimizer";
import { keepFaces, type Mesh } from "./mesh-glb";

/**
 * Removes connected components (faces joined by shared vertices) with fewer than `minFraction` of all
 * faces: the floaters a Poisson surface grows around stray points. The subject itself is one large piece.
 */
export function removeSmallComponents(mesh: Mesh, minFraction: number): { mesh: Mesh; removedComponents: number; removedFaces: number } {
  const parent = Int32Array.from({ length: mesh.positions.length / 3 }, (_, i) => i);
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
    return v;
  };
  const faces = mesh.indices.length / 3;
  for (let f = 0; f < faces; f++) {
    const a = find(mesh.indices[f * 3]);
    for (let k = 1; k < 3; k++) {
      const b = find(mesh.indices[f * 3 + k]);
      if (a !== b) parent[b] = a;
    }
  }
  const facesOf = new Map<number, number>();
  const root = new Int32Array(faces);
  for (let f = 0; f < faces; f++) {
    root[f] = find(mesh.indices[f * 3]);
    facesOf.set(root[f], (facesOf.get(root[f]) ?? 0) + 1);
  }
  const minFaces = Math.max(1, Math.ceil(minFraction * faces));
  let removedComponents = 0;
  let removedFaces = 0;
  for (const count of facesOf.values()) {
    if (count < minFaces) {
      removedComponents++;
      removedFaces += count;
    }
  }
  return { mesh: keepFaces(mesh, (f) => facesOf.get(root[f])! >= minFaces), removedComponents, removedFaces };
}

/**
 * Simplifies the surface to at most `maxTriangles` (quadric error metric; the count is the binding limit, not
 * the error). Answers the mesh unchanged when it is already within the budget, and the simplifier's relative
 * error (a fraction of the mesh's extent) otherwise.
 */
export async function simplifyToBudget(mesh: Mesh, maxTriangles: number): Promise<{ mesh: Mesh; error: number }> {
  if (mesh.indices.length / 3 <= maxTriangles) return { mesh, error: 0 };
  await MeshoptSimplifier.ready;
  const [indices, error] = MeshoptSimplifier.simplify(mesh.indices, mesh.positions, 3, maxTriangles * 3, 1, []);
  const simplified = { ...mesh, indices };
  return { mesh: keepFaces(simplified, () => true), error };
}
