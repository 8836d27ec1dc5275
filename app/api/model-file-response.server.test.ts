import { describe, expect, it } from "vitest";
import type { ModelFile } from "~/domain/model-files.server";
import { xorInPlace, xorKeyFromString } from "~/lib/xor";
import { HeldModelBytes } from "./model-file-response.server";

const XOR_KEY = "held-bytes-key";

/** A store of named byte arrays that counts its reads and can hold a read back until told. */
function fakeStore(objects: Record<string, Uint8Array>) {
  const reads: string[] = [];
  let release: (() => void) | null = null;
  let gate: Promise<void> | null = null;
  return {
    reads,
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release?.(),
    read: async (key: string, length: number) => {
      reads.push(key);
      if (gate) await gate;
      return new Uint8Array(objects[key].subarray(0, length));
    },
    objects,
  };
}

const fileOf = (key: string, bytes: Uint8Array, etag = '"e1"'): ModelFile => ({ key, size: bytes.length, etag, fileName: "m.glb", variant: "delivered" });
/** Held bytes XORed back; a file that was not held (null) fails the test. */
function unxor(bytes: Uint8Array | null) {
  if (!bytes) throw new Error("expected the file's bytes, got null (not held)");
  return xorInPlace(new Uint8Array(bytes), xorKeyFromString(XOR_KEY), 0);
}
const bytesOfLength = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 255);

describe("HeldModelBytes", () => {
  it("answers XORed bytes, read once and then from memory", async () => {
    const model = bytesOfLength(1001, 7);
    const store = fakeStore({ "items/a.glb": model });
    const held = new HeldModelBytes(8192, store.read);
    const first = await held.bytesOf(fileOf("items/a.glb", model), '"e1"', XOR_KEY);
    const second = await held.bytesOf(fileOf("items/a.glb", model), '"e1"', XOR_KEY);
    expect(first).not.toEqual(model);
    expect(unxor(first)).toEqual(model);
    expect(second).toBe(first);
    expect(store.reads).toEqual(["items/a.glb"]);
    expect(held.bytes).toBe(1001);
  });

  it("shares one read among downloads that miss at once", async () => {
    const model = bytesOfLength(500, 1);
    const store = fakeStore({ "items/a.glb": model });
    const held = new HeldModelBytes(8192, store.read);
    store.hold();
    const downloads = Array.from({ length: 5 }, () => held.bytesOf(fileOf("items/a.glb", model), '"e1"', XOR_KEY));
    store.release();
    const answers = await Promise.all(downloads);
    expect(store.reads).toHaveLength(1);
    for (const answer of answers) expect(unxor(answer)).toEqual(model);
  });

  it("reads a changed object again (a new ETag)", async () => {
    const before = bytesOfLength(300, 2);
    const after = bytesOfLength(300, 9);
    const store = fakeStore({ "items/a.glb": before });
    const held = new HeldModelBytes(8192, store.read);
    expect(unxor((await held.bytesOf(fileOf("items/a.glb", before), '"e1"', XOR_KEY)))).toEqual(before);
    store.objects["items/a.glb"] = after;
    expect(unxor((await held.bytesOf(fileOf("items/a.glb", after, '"e2"'), '"e2"', XOR_KEY)))).toEqual(after);
    expect(store.reads).toEqual(["items/a.glb", "items/a.glb"]);
  });

  it("neither reads nor holds a file over an eighth of its budget: that one is left to stream", async () => {
    const large = bytesOfLength(1025, 3);
    const fits = bytesOfLength(1024, 5);
    const store = fakeStore({ "items/large.glb": large, "items/fits.glb": fits });
    const held = new HeldModelBytes(8192, store.read);
    expect(await held.bytesOf(fileOf("items/large.glb", large), '"e1"', XOR_KEY)).toBeNull();
    expect(unxor((await held.bytesOf(fileOf("items/fits.glb", fits), '"e1"', XOR_KEY)))).toEqual(fits);
    expect(store.reads).toEqual(["items/fits.glb"]);
    expect(held.bytes).toBe(1024);
  });

  it("does not hold bytes that are not the size the file was found with (changed between the two)", async () => {
    const model = bytesOfLength(400, 4);
    const store = fakeStore({ "items/a.glb": model.subarray(0, 100) });
    const held = new HeldModelBytes(8192, store.read);
    const answer = await held.bytesOf(fileOf("items/a.glb", model), '"e1"', XOR_KEY);
    expect(answer).toHaveLength(100);
    await held.bytesOf(fileOf("items/a.glb", model), '"e1"', XOR_KEY);
    expect(store.reads).toHaveLength(2);
    expect(held.bytes).toBe(0);
  });

  it("lets the least recently used files go when the budget is spent", async () => {
    const indices = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    const models = indices.map((seed) => bytesOfLength(400, seed));
    const store = fakeStore(Object.fromEntries(models.map((bytes, i) => [`items/${i}.glb`, bytes])));
    // An eighth of 3,200 is 400: each file may be held, and eight of them fill the budget.
    const held = new HeldModelBytes(3200, store.read);
    for (const i of indices) await held.bytesOf(fileOf(`items/${i}.glb`, models[i]), '"e1"', XOR_KEY);
    // 9 × 400 > 3,200: the first went, the other eight are still held.
    expect(held.bytes).toBe(3200);
    for (const i of [...indices].reverse()) await held.bytesOf(fileOf(`items/${i}.glb`, models[i]), '"e1"', XOR_KEY);
    expect(store.reads).toEqual([...indices.map((i) => `items/${i}.glb`), "items/0.glb"]);
  });
});
