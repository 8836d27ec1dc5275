import { describe, expect, it } from "vitest";
import { ledgerEntryTitle, readableLedgerReason } from "./ledger-history";

describe("credit history wording (issue 18 item 7)", () => {
  it("names the settled reservation instead of 'scan 0', and counts credits with their unit", () => {
    expect(ledgerEntryTitle({ kind: "consumption", credit_type: "scan", amount: 0 })).toBe("Used \u00b7 the reserved scan credit");
    expect(ledgerEntryTitle({ kind: "reservation", credit_type: "scan", amount: -1 })).toBe("Reserved \u00b7 1 scan credit");
    expect(ledgerEntryTitle({ kind: "period_grant", credit_type: "link", amount: 5 })).toBe("Monthly grant \u00b7 5 link credits");
  });

  it("drops raw item ids from reasons and shortens any other id", () => {
    expect(readableLedgerReason("Scan of item 3f2a9c1e-0b6d-4a7e-9f10-2c3d4e5f6a7b finished")).toBe("Scan finished");
    expect(readableLedgerReason("Refund for 3f2a9c1e-0b6d-4a7e-9f10-2c3d4e5f6a7b")).toBe("Refund for 3f2a9c1e\u2026");
    expect(readableLedgerReason("Share link")).toBe("Share link");
  });
});
