import { describe, expect, it } from "vitest";
import { MIN_PASSWORD_LENGTH, passwordBits, passwordProblem, passwordStrength } from "./password-rule";

describe("passwordProblem", () => {
  it("asks for at least 10 characters, counting characters rather than UTF-16 units", () => {
    expect(MIN_PASSWORD_LENGTH).toBe(10);
    expect(passwordProblem("short-pw9")).toBe("Use at least 10 characters.");
    expect(passwordProblem("😀😀😀😀😀😀😀😀😀")).toBe("Use at least 10 characters."); // 9 characters, 18 units
    expect(passwordProblem("correct-horse-battery")).toBeNull();
  });

  it("refuses the account's own e-mail address or name, and the passwords tried first", () => {
    expect(passwordProblem("ada.lovelace@example.com", { email: "Ada.Lovelace@example.com" })).toBe("Don't use your e-mail address as your password.");
    expect(passwordProblem("ada.lovelace", { email: "ada.lovelace@example.com" })).toBe("Don't use your e-mail address as your password.");
    expect(passwordProblem("Ada Lovelace", { name: "Ada  Lovelace" })).toBe("Don't use your name as your password.");
    for (const common of ["Password2024!", "qwerty123456", "1234567890", "11223344556677", "!!Football99"]) {
      expect(passwordProblem(common), common).toBe("This password is one of the first that attackers try. Choose another.");
    }
    expect(passwordProblem("passwordless-login-2024")).toBeNull();
  });
});

describe("passwordStrength", () => {
  it("grades from too short to strong, with what would help", () => {
    const cases: Array<[string, string]> = [
      ["abc", "too short"],
      ["aaaaaaaaaaaa", "weak"],
      ["abcdefghijkl", "weak"],
      ["qwertyuiopasdf", "weak"],
      ["tulipgarden", "fair"],
      ["tulipgarden77", "good"],
      ["tulip-garden-77", "strong"],
      ["Tulip-Garden-77-Ferry", "strong"],
    ];
    for (const [password, strength] of cases) {
      const graded = passwordStrength(password);
      expect(graded.strength, `${password}: ${passwordBits(password)} bits`).toBe(strength);
      expect(graded.hint.length, password).toBeGreaterThan(0);
    }
  });

  it("counts runs, repeats and keyboard rows as little work", () => {
    expect(passwordBits("aaaaaaaaaaaa")).toBeLessThan(passwordBits("ahqmzvtrxwkb") / 3);
    expect(passwordBits("abcdefghijkl")).toBeLessThan(passwordBits("ahqmzvtrxwkb") / 3);
    expect(passwordBits("asdfghjkl")).toBeLessThan(passwordBits("ahqmzvtrx") / 2);
  });
});
