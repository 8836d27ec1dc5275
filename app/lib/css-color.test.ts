import { describe, expect, it } from "vitest";
import { isSafeCssColor, safeCssColor } from "./css-color";

describe("isSafeCssColor", () => {
  it("accepts hex, functional and named colours", () => {
    for (const c of ["#fff", "#FFAA00", "#11223344", "rgb(1, 2, 3)", "rgba(255,255,255,0.1)", "hsl(210deg 40% 50% / 0.5)", "rebeccapurple"]) {
      expect(isSafeCssColor(c), c).toBe(true);
    }
  });
  it("refuses anything that could load or inject", () => {
    for (const c of ["url(https://x)", "red; background:url(x)", "var(--x)", "expression(alert(1))", "#ggg", "", "rgb(1,2,3);x"]) {
      expect(isSafeCssColor(c), c).toBe(false);
    }
    expect(safeCssColor("url(x)")).toBeNull();
    expect(safeCssColor(null)).toBeNull();
  });
});
