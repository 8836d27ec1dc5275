import { describe, expect, it } from "vitest";
import { readHandles } from "./route-handle";

describe("readHandles", () => {
  it("gives the site's chrome, PrimeReact's theme and a restored session when no route says otherwise", () => {
    expect(readHandles([{}, { handle: undefined }])).toEqual({ layout: true, surface: "site", session: true, primeTheme: true });
  });

  it("lets the deepest route that says so turn the layout, the session and the theme off (the embed)", () => {
    expect(readHandles([{ handle: {} }, { handle: { layout: false, session: false, primeTheme: false } }])).toEqual({
      layout: false,
      surface: "site",
      session: false,
      primeTheme: false,
    });
  });

  it("keeps an earlier route's setting that a later route does not mention", () => {
    expect(readHandles([{ handle: { session: false } }, { handle: { layout: false } }]).session).toBe(false);
  });
});
