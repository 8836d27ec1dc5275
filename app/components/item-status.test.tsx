import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ItemStatus } from "./item-status";

const text = (html: string) => html.replace(/<[^>]+>/g, "");

describe("ItemStatus while a scan runs", () => {
  it("shows the worker's stage line with its percent once", () => {
    const html = renderToStaticMarkup(<ItemStatus status="processing" detail="Matching images — 50% · about 4 min left" progress={0.5} />);
    expect(text(html)).toBe("ProcessingMatching images — 50% · about 4 min left");
    expect(text(html).match(/50%/g)).toHaveLength(1);
  });

  it("without a stage line, shows the percent it has", () => {
    expect(text(renderToStaticMarkup(<ItemStatus status="processing" detail={null} progress={0.25} />))).toBe("ProcessingWorking · 25%");
  });
});

describe("ItemStatus of a Builder scene never saved (decision 046)", () => {
  it("says Draft, not Ready, and how to finish it", () => {
    const html = renderToStaticMarkup(<ItemStatus status="draft" detail={null} progress={null} />);
    expect(text(html)).toBe("DraftNot saved yet: save it in the Builder to show it to others");
    expect(text(html)).not.toContain("Ready");
  });
});
