import { describe, expect, it } from "vitest";
import { describeTrainer, parseWorkerConfig } from "./worker.server";

describe("the CPU trainer's opacity-reset setting", () => {
  it("does not reset unless told to, and takes a fraction of the budget", () => {
    expect(parseWorkerConfig({}).SCAN_TRAIN_OPACITY_RESET_EVERY).toBe(0);
    expect(parseWorkerConfig({ SCAN_TRAIN_OPACITY_RESET_EVERY: "0.175" }).SCAN_TRAIN_OPACITY_RESET_EVERY).toBe(0.175);
    expect(parseWorkerConfig({ SCAN_TRAIN_OPACITY_RESET_EVERY: "0" }).SCAN_TRAIN_OPACITY_RESET_EVERY).toBe(0);
    expect(parseWorkerConfig({ SCAN_TRAIN_OPACITY_RESET_EVERY: "0.1" }).SCAN_TRAIN_OPACITY_RESET_EVERY).toBe(0.1);
  });

  it("refuses a fraction outside 0–1 or a word, naming the setting", () => {
    for (const value of ["-0.1", "1.5", "often"]) {
      expect(() => parseWorkerConfig({ SCAN_TRAIN_OPACITY_RESET_EVERY: value })).toThrow(/SCAN_TRAIN_OPACITY_RESET_EVERY/);
    }
  });
});

describe("the trainer the worker names when it starts", () => {
  it("is our CPU trainer with its budget unless a trainer command is set or training is off", () => {
    expect(describeTrainer(parseWorkerConfig({}))).toBe("ours on the CPU (native/train), up to 6 min per scan");
    expect(describeTrainer(parseWorkerConfig({ SCAN_TRAIN_MINUTES: "0" }))).toBe("none: SCAN_TRAIN_MINUTES=0, splats built from the points");
    expect(describeTrainer(parseWorkerConfig({ SCAN_TRAINER_COMMAND: "train {dataset} {output}" }))).toBe("SCAN_TRAINER_COMMAND (external, e.g. a GPU trainer)");
  });
});
