import { describe, expect, it } from "vitest";
import { ByteBudgetLru } from "./byte-budget-lru";

const lru = (maxBytes: number) => new ByteBudgetLru<string>(maxBytes, (value) => value.length);

describe("ByteBudgetLru", () => {
  it("keeps values within its budget, the least recently used out first", () => {
    const cache = lru(10);
    cache.set("a", "aaaa");
    cache.set("b", "bbbb");
    expect(cache.get("a")).toBe("aaaa"); // a is now the most recently used
    cache.set("c", "cccc"); // 12 bytes: b goes
    expect(cache.peek("b")).toBeUndefined();
    expect(cache.peek("a")).toBe("aaaa");
    expect(cache.peek("c")).toBe("cccc");
    expect(cache.bytes).toBe(8);
  });

  it("peek leaves the order of use alone", () => {
    const cache = lru(8);
    cache.set("a", "aaaa");
    cache.set("b", "bbbb");
    cache.peek("a");
    cache.set("c", "cccc");
    expect(cache.peek("a")).toBeUndefined();
    expect(cache.peek("b")).toBe("bbbb");
  });

  it("weighs a replaced value again and never keeps one heavier than the budget", () => {
    const cache = lru(10);
    cache.set("a", "aaaa");
    cache.set("a", "aaaaaaaa");
    expect(cache.bytes).toBe(8);
    cache.set("big", "x".repeat(11));
    expect(cache.peek("big")).toBeUndefined();
    expect(cache.peek("a")).toBe("aaaaaaaa");
    expect(cache.bytes).toBe(8);
  });

  it("forgets what deleteWhere picks, and its bytes", () => {
    const cache = lru(100);
    for (const key of ["x1", "y1", "x2"]) cache.set(key, key.repeat(3));
    cache.deleteWhere((_value, key) => key.startsWith("x"));
    expect([cache.peek("x1"), cache.peek("y1"), cache.peek("x2")]).toEqual([undefined, "y1y1y1", undefined]);
    expect(cache.bytes).toBe(6);
  });
});

describe("ByteBudgetLru's tags", () => {
  const tagged = (maxBytes: number) => new ByteBudgetLru<{ text: string; tags: string[] }>(maxBytes, (value) => value.text.length, (value) => value.tags);

  it("forgets every value with a tag and nothing else, its bytes with it", () => {
    const cache = tagged(100);
    cache.set("page a", { text: "aaaa", tags: ["item:a", "user:o"] });
    cache.set("page b", { text: "bbbb", tags: ["item:b", "user:o"] });
    cache.set("page c", { text: "cccc", tags: ["item:c"] });
    cache.deleteTagged("item:a");
    expect([cache.peek("page a"), cache.peek("page b")?.text, cache.peek("page c")?.text]).toEqual([undefined, "bbbb", "cccc"]);
    cache.deleteTagged("user:o");
    expect([cache.peek("page b"), cache.peek("page c")?.text]).toEqual([undefined, "cccc"]);
    expect(cache.bytes).toBe(4);
    cache.deleteTagged("item:nobody");
    expect(cache.bytes).toBe(4);
    cache.clear();
    expect([cache.peek("page c"), cache.bytes]).toEqual([undefined, 0]);
    // Nothing of what was cleared answers to its tags: a value kept again under a cleared key keeps only its own.
    cache.set("page c", { text: "cc", tags: ["item:new"] });
    cache.deleteTagged("item:c");
    expect(cache.peek("page c")?.text).toBe("cc");
  });

  it("tags a replaced value by its new tags only, and a value kept again by none of the old one's", () => {
    const cache = tagged(8);
    cache.set("page a", { text: "aaaa", tags: ["item:a"] });
    cache.set("page a", { text: "aaaa", tags: ["item:z"] });
    cache.deleteTagged("item:a");
    expect(cache.peek("page a")?.tags).toEqual(["item:z"]);
    cache.set("page b", { text: "bbbb", tags: ["item:b"] });
    cache.set("page c", { text: "cccc", tags: ["item:c"] }); // 12 bytes: page a goes
    expect(cache.peek("page a")).toBeUndefined();
    cache.deleteTagged("item:b");
    // Kept again under the same key, it answers to its new tag only.
    cache.set("page a", { text: "aaaa", tags: ["item:a2"] });
    cache.deleteTagged("item:z");
    expect(cache.peek("page a")?.text).toBe("aaaa");
    expect(cache.bytes).toBe(8);
    cache.deleteTagged("item:a2");
    expect(cache.peek("page a")).toBeUndefined();
    expect(cache.bytes).toBe(4);
  });
});
