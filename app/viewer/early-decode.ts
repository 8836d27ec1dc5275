/**
 * A splat decoded while the page is still starting (decision 035): startViewerEarly() hands the early model
 * download here as soon as the viewer bundle has run, so Spark decodes the file while React hydrates and the
 * viewer is created; the viewer's load() of that same download then takes the decoded model instead of
 * decoding again (it decodes itself when the early decode failed or used other settings).
 */
import { detectFileFormat, isSplatFormat, type ModelFormat } from "../formats/model-format";
import { detectDeviceProfile } from "./device-profile";
import type { ModelDownload } from "./download";
import type { LoadedModel } from "./loaded-model";
import { markLoad } from "./load-marks";
import { DEFAULT_SPLAT_TIMEOUT_MS, loadSplat } from "./load-splat";

export interface EarlyDecoded {
  bytes: ArrayBuffer;
  format: ModelFormat;
  splatBudget: number | undefined;
  model: LoadedModel;
}

const decodes = new WeakMap<ModelDownload, Promise<EarlyDecoded | null>>();

/**
 * Decodes the download's file once it has arrived, when it is a splat (null for anything else); after the
 * decode of `after` (the model's coarse level, which should be on screen first) when one is named.
 */
export function decodeEarly(download: ModelDownload, { after }: { after?: ModelDownload | null } = {}): void {
  if (decodes.has(download)) return;
  const before = after ? (decodes.get(after)?.catch(() => null) ?? null) : null;
  const decoded = Promise.all([download.done, before]).then(async ([bytes]): Promise<EarlyDecoded | null> => {
    const format = detectFileFormat(bytes);
    if (!format || !isSplatFormat(format)) return null;
    const splatBudget = detectDeviceProfile().splatBudget;
    markLoad("early-decode");
    const model = await loadSplat({ bytes, format, timeoutMs: DEFAULT_SPLAT_TIMEOUT_MS, splatBudget });
    markLoad("early-decoded");
    return { bytes, format, splatBudget, model };
  });
  decoded.catch(() => undefined); // the viewer decodes again and reports its own error
  decodes.set(download, decoded);
}

/** The early decode of this download, once; null when none was started. */
export function takeEarlyDecode(download: ModelDownload): Promise<EarlyDecoded | null> | null {
  const decoded = decodes.get(download) ?? null;
  decodes.delete(download);
  return decoded;
}
