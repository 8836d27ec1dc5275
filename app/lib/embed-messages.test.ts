import { describe, expect, it } from "vitest";
import { embedEvent, parseEmbedCommand } from "./embed-messages";

const envelope = { channel: "scanroom", version: 1 } as const;

describe("parseEmbedCommand", () => {
  it("ignores messages that are not ours", () => {
    for (const data of [null, undefined, "setCamera", 42, { type: "setCamera" }, { channel: "other", type: "load" }, [envelope]]) {
      expect(parseEmbedCommand(data), JSON.stringify(data)).toBeNull();
    }
  });

  it("accepts each well-formed command", () => {
    const commands = [
      { ...envelope, type: "load", itemId: "3f1c2a4e-8b7d-4e6f-9a0b-1c2d3e4f5a6b" },
      { ...envelope, type: "setCamera", position: [1, 2, 3], target: [0, 0, 0], requestId: "r1" },
      { ...envelope, type: "getCamera" },
      { ...envelope, type: "playTour", from: 1, stepMs: 1500 },
      { ...envelope, type: "stopTour" },
    ];
    for (const command of commands) expect(parseEmbedCommand(command)).toEqual({ ok: true, command });
  });

  it("explains what is wrong with a malformed command of ours", () => {
    const cases: Array<[unknown, string]> = [
      [{ ...envelope, type: "setCamera", position: [1, 2], target: [0, 0, 0] }, "Ignored an invalid setCamera command: position"],
      [{ ...envelope, type: "setCamera", position: [0, 0, 1], target: [0, 0, 1] }, "target: must differ from position"],
      [{ ...envelope, type: "setCamera", position: [0, 0, 1e9], target: [0, 0, 0] }, "position.2"],
      [{ ...envelope, type: "load", itemId: "../../admin" }, "itemId must be a model id (UUID)"],
      [{ ...envelope, type: "playTour", stepMs: 10 }, "stepMs"],
      [{ ...envelope, type: "launch" }, "Ignored an invalid launch command"],
      [{ channel: "scanroom", version: 2, type: "getCamera" }, "version"],
      [{ ...envelope, type: "getCamera", extra: true }, "Unrecognized key"],
    ];
    for (const [data, message] of cases) {
      const parsed = parseEmbedCommand(data);
      expect(parsed?.ok, JSON.stringify(data)).toBe(false);
      expect(parsed && !parsed.ok && parsed.message).toContain(message);
    }
  });
});

describe("embedEvent", () => {
  it("wraps an event in the channel envelope", () => {
    expect(embedEvent({ type: "click", itemId: "i", x: 0.5, y: 0.25 })).toEqual({ ...envelope, type: "click", itemId: "i", x: 0.5, y: 0.25 });
  });
});
