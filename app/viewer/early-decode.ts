/**
 * A splat decoded while the page is still starting (decision 035): startViewerEarly() hands the early model
 * download here as soon as the viewer bundle has run, so Spark decodes the file while React hydrates and the
 * viewer is created; the viewer's load() of that same download then takes the decoded model instead of
 * decoding again (it decodes itself when the early decode failed or used other settings).
 */
import { detectModelFormat, isSplatFormat, type ModelFormat } from "../lib/model-format";
import { detectDeviceProfile } from "./device-profile";
import type { ModelDownload } from "./download";
import type { LoadedModel } from "./loaded-model";
import { markLoad } from "./load-marks";
import { loadSplat } from "./load-splat";

/** How long a splat's decode may take (the viewer's default, and the early decode's). */
export const DEFAULT_SPLAT_TIMEOUT_MS = 60_000;
const HEAD_BYTES = 64 * 1024;

export interface EarlyDecoded {
  bytes: ArrayBuffer;
  format: ModelFormat;
  splatBudget: number | undefined;
  model: LoadedModel;
}

const decodes = new WeakMap<ModelDownload, Promise<EarlyDecoded | null>>();

/** Decodes the download's file once it has arrived, when it is a splat (null for anything else). */
export function decodeEarly(download: ModelDownload): void {
  if (decodes.has(download)) return;
  const decoded = download.done.then(async (bytes): Promise<EarlyDecoded | null> => {
    const format = detectModelFormat(new Uint8Array(bytes, 0, Math.min(bytes.byteLength, HEAD_BYTES)));
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
