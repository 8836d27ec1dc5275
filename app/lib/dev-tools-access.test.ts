import { describe, expect, it } from "vitest";
import { devToolsAccess } from "./dev-tools-access";

describe("devToolsAccess", () => {
  it("in production: tools only for admins with dev mode on, test components never", () => {
    expect(devToolsAccess({ profile: "production", isAdmin: false, devMode: true })).toEqual({ mayToggle: false, showTools: false, showTestComponents: false });
    expect(devToolsAccess({ profile: "production", isAdmin: true, devMode: true })).toEqual({ mayToggle: true, showTools: true, showTestComponents: false });
    expect(devToolsAccess({ profile: "production", isAdmin: true, devMode: false })).toEqual({ mayToggle: true, showTools: false, showTestComponents: false });
  });

  it("outside production: anyone with dev mode on, test components included", () => {
    expect(devToolsAccess({ profile: "local", isAdmin: false, devMode: true })).toEqual({ mayToggle: true, showTools: true, showTestComponents: true });
    expect(devToolsAccess({ profile: "local", isAdmin: false, devMode: false })).toEqual({ mayToggle: true, showTools: false, showTestComponents: false });
  });
});
