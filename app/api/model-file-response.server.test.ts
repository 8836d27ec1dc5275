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
const unxor = (bytes: Uint8Array) => xorInPlace(new Uint8Array(bytes), xorKeyFromString(XOR_KEY), 0);
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

  it("reads a changed object again (a new ETag), and holds no file over an eighth of its budget", async () => {
    const before = bytesOfLength(300, 2);
    const after = bytesOfLength(300, 9);
    const large = bytesOfLength(1025, 3);
    const store = fakeStore({ "items/a.glb": before, "items/large.glb": large });
    const held = new HeldModelBytes(8192, store.read);
    expect(held.maxEntryBytes).toBe(1024);
    expect(unxor(await held.bytesOf(fileOf("items/a.glb", before), '"e1"', XOR_KEY))).toEqual(before);
    store.objects["items/a.glb"] = after;
    expect(unxor(await held.bytesOf(fileOf("items/a.glb", after, '"e2"'), '"e2"', XOR_KEY))).toEqual(after);
    expect(store.reads).toEqual(["items/a.glb", "items/a.glb"]);
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
    const models = [0, 1, 2].map((seed) => bytesOfLength(400, seed));
    const store = fakeStore(Object.fromEntries(models.map((bytes, i) => [`items/${i}.glb`, bytes])));
    const held = new HeldModelBytes(1000, store.read);
    for (const i of [0, 1, 2]) await held.bytesOf(fileOf(`items/${i}.glb`, models[i]), '"e1"', XOR_KEY);
    // 3 × 400 > 1,000: the first went, the other two are still held.
    expect(held.bytes).toBe(800);
    for (const i of [2, 1, 0]) await held.bytesOf(fileOf(`items/${i}.glb`, models[i]), '"e1"', XOR_KEY);
    expect(store.reads).toEqual(["items/0.glb", "items/1.glb", "items/2.glb", "items/0.glb"]);
  });
});
