import { describe, expect, it } from "vitest";
import { shareTargets } from "./share-targets";

describe("shareTargets", () => {
  const url = "https://scanroom.example/item/3f0c2a4e-1b2c-4d5e-8f90-123456789abc";
  const title = "Oak chair & table #2";

  it("gives each network the link and title, encoded so nothing leaks into the query", () => {
    const byId = Object.fromEntries(shareTargets(url, title).map((t) => [t.id, new URL(t.href)]));
    expect(byId.x.origin + byId.x.pathname).toBe("https://x.com/intent/post");
    expect(byId.x.searchParams.get("url")).toBe(url);
    expect(byId.x.searchParams.get("text")).toBe(title);
    expect(byId.facebook.searchParams.get("u")).toBe(url);
    expect([...byId.facebook.searchParams.keys()]).toEqual(["u"]);
    expect(byId.reddit.searchParams.get("url")).toBe(url);
    expect(byId.reddit.searchParams.get("title")).toBe(title);
  });

  it("writes an e-mail with the title as subject and the link in the body", () => {
    const email = shareTargets(url, title).find((t) => t.id === "email")!;
    const query = new URLSearchParams(email.href.slice("mailto:?".length));
    expect(query.get("subject")).toBe(title);
    expect(query.get("body")).toBe(`${title}\n${url}`);
  });
});
