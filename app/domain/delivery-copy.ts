/**
 * Which stored object viewers get for an item (pure; the API presenter and the file route share it):
 * the delivery copy when it was made from the item's current file, the file itself otherwise.
 */
export interface DeliveryFields {
  fileKey: string | null;
  fileFormat: string | null;
  deliveryKey: string | null;
  deliveryFormat: string | null;
  deliverySourceKey: string | null;
}

export function deliveredObject(item: DeliveryFields): { key: string; format: string | null; isDeliveryCopy: boolean } | null {
  if (!item.fileKey) return null;
  if (item.deliveryKey && item.deliverySourceKey === item.fileKey) {
    return { key: item.deliveryKey, format: item.deliveryFormat, isDeliveryCopy: true };
  }
  return { key: item.fileKey, format: item.fileFormat, isDeliveryCopy: false };
}

/**
 * The coarse copy viewers show before the delivery copy arrives (issue 20). It is made with the
 * delivery copy and is valid only while that is: null when the item's file changed since, or when
 * the splat was too small to need one.
 */
export function coarseObject(item: DeliveryFields & { deliveryCoarseKey: string | null }): { key: string } | null {
  if (!item.deliveryCoarseKey || !deliveredObject(item)?.isDeliveryCopy) return null;
  return { key: item.deliveryCoarseKey };
}
