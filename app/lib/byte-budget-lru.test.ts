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
