import { BoxGeometry, Group, Mesh, MeshBasicMaterial, MeshStandardMaterial } from "three";
import { describe, expect, it } from "vitest";
import { showUnlitAsStored } from "./load-gltf";

describe("unlit materials in the viewer", () => {
  it("shows unlit (baked) materials without tone mapping and leaves lit ones tone mapped", () => {
    const baked = new MeshBasicMaterial();
    const lit = new MeshStandardMaterial();
    const shared = new MeshBasicMaterial();
    const root = new Group();
    root.add(new Mesh(new BoxGeometry(), baked), new Mesh(new BoxGeometry(), lit), new Mesh(new BoxGeometry(), [shared, new MeshStandardMaterial()]));
    expect(showUnlitAsStored(root)).toBe(2);
    expect(baked.toneMapped).toBe(false);
    expect(shared.toneMapped).toBe(false);
    expect(lit.toneMapped).toBe(true);
  });
});
