import { describe, expect, it } from "vitest";
import { coarseObject, deliveredObject } from "./delivery-copy";

const current = {
  fileKey: "items/a/model.ply",
  fileFormat: "ply",
  deliveryKey: "items/a/delivery/x.sog",
  deliveryFormat: "sog",
  deliverySourceKey: "items/a/model.ply",
  deliveryCoarseKey: "items/a/delivery/x.coarse.sog",
};

describe("coarseObject", () => {
  it("is the coarse copy while the delivery copy is the item's current one", () => {
    expect(deliveredObject(current)).toMatchObject({ key: current.deliveryKey, isDeliveryCopy: true });
    expect(coarseObject(current)).toEqual({ key: current.deliveryCoarseKey });
  });

  it("is null without one, and once the item's file has changed since the copies were made", () => {
    expect(coarseObject({ ...current, deliveryCoarseKey: null })).toBeNull();
    expect(coarseObject({ ...current, fileKey: "items/a/edited.ply" })).toBeNull();
    expect(coarseObject({ ...current, deliveryKey: null })).toBeNull();
    expect(coarseObject({ ...current, fileKey: null })).toBeNull();
  });
});
