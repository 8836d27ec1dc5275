import { describe, expect, it } from "vitest";
import { initialDisplayName, neutralHandle, publicDisplayName } from "./public-name";

const userId = "5f0c2d1e-9a8b-4c7d-8e6f-112233445566";

describe("public names (issue 17, item 18)", () => {
  it("derives a neutral handle from the account id only", () => {
    expect(neutralHandle(userId)).toBe("creator-5f0c2d1e");
  });

  it("keeps a real profile name and replaces anything that is, or is part of, an email", () => {
    const email = "s-1795.smith@example.com";
    expect(initialDisplayName({ userId, profileName: "  Ada Lovelace ", email })).toBe("Ada Lovelace");
    expect(initialDisplayName({ userId, profileName: undefined, email })).toBe("creator-5f0c2d1e");
    expect(initialDisplayName({ userId, profileName: "   ", email })).toBe("creator-5f0c2d1e");
    expect(initialDisplayName({ userId, profileName: email, email })).toBe("creator-5f0c2d1e");
    expect(initialDisplayName({ userId, profileName: "someone@else.test", email })).toBe("creator-5f0c2d1e");
    expect(initialDisplayName({ userId, profileName: "S-1795.Smith", email })).toBe("creator-5f0c2d1e");
    expect(initialDisplayName({ userId, profileName: "@handle", email: null })).toBe("@handle");
  });

  it("shows the stored name, or the handle when none was ever stored", () => {
    expect(publicDisplayName({ id: userId, displayName: "Maker" })).toBe("Maker");
    expect(publicDisplayName({ id: userId, displayName: null })).toBe("creator-5f0c2d1e");
  });
});
