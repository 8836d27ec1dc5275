import { useEffect, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { modelDownloadNeedsToken } from "~/domain/item-presenter";
import type { ViewerSettings } from "~/domain/viewer-settings";
import type { ViewerBackground } from "~/viewer/background";
import { usePublicEnv } from "~/components/use-public-env";
import { xorKeyFromString } from "~/lib/xor";
import type { ArFiles } from "~/viewer/ar";
import type { PartTransform } from "~/viewer/types";
import type { CameraView } from "~/viewer/camera-view";
import { ModelViewer, type ModelViewerProps } from "./model-viewer";

/** One model of a scene item (the Builder's scenes); `url` is that part's file URL. */
export interface ScenePartItem {
  id: string;
  name?: string | null;
  url: string;
  delivered_format?: string | null;
  file_format?: string | null;
  transform: PartTransform;
}

/**
 * The viewer with the owner's token (needed for private models); waits for the first sign-in state.
 * Opens as the item's viewer settings say (camera, background, autorotate); explicit props win.
 * A scene item (`scene_parts`) shows its parts together, each placed by its transform.
 */
/** The saved opening view, at the owner's field of view when they chose one (it replaces the view's own). */
function openingView(settings: { camera?: CameraView | null; fov?: number | null } | undefined): CameraView | null | undefined {
  if (!settings?.camera || !settings.fov) return settings?.camera;
  return { ...settings.camera, fov: settings.fov };
}

/**
 * The AR files as the phone's viewer fetches them: absolute, and the GLB only for a model others may see — Scene
 * Viewer fetches without the site's cookie, so a private model's file would be refused (Quick Look sends it).
 */
function arFilesOf(item: { name?: string | null; visibility?: string; ar?: { usdz_url: string; glb_url: string } | null }): ArFiles | null {
  if (!item.ar || typeof window === "undefined") return null;
  const absolute = (url: string) => new URL(url, window.location.href).href;
  return { usdz: absolute(item.ar.usdz_url), glb: item.visibility === "private" ? null : absolute(item.ar.glb_url), ...(item.name ? { title: item.name } : {}) };
}

export function ItemViewer({
  item,
  background,
  autorotate,
  onViewer,
  onReady,
  onError,
  original = false,
  show = "splat",
}: {
  item: {
    name?: string | null;
    model_url: string | null;
    /** A coarse level of model_url's splat (about a tenth of its splats), shown while model_url arrives. */
    model_coarse_url?: string | null;
    file_format: string | null;
    model_type: string;
    /** What model_url serves (a splat's compact .sog delivery copy once made); see the item presenter. */
    delivered_format?: string | null;
    /** The file as uploaded, for its owner. */
    original_url?: string | null;
    /** A scan's textured mesh (GLB), shown instead of the splat when `show` is "mesh". */
    mesh_url?: string | null;
    /** Its light level (≤ 50k triangles), which "View in your space" places. */
    mesh_lite_url?: string | null;
    /** The server's AR files (USDZ, GLB) of the model's mesh, relative to the site. */
    ar?: { usdz_url: string; glb_url: string } | null;
    /** Public and unlisted models download without waiting for the sign-in state (no token needed). */
    visibility?: string;
    settings?: Pick<ViewerSettings, "camera" | "background" | "autorotate"> & Partial<Pick<ViewerSettings, "autorotate_speed" | "fov">>;
    /** Set for scene items: the models placed in the scene. */
    scene_parts?: ScenePartItem[] | null;
  };
  background?: ViewerBackground;
  autorotate?: boolean;
  onViewer?: ModelViewerProps["onViewer"];
  onReady?: ModelViewerProps["onReady"];
  onError?: ModelViewerProps["onError"];
  /** Show the owner's original file instead of the delivery copy (to compare them). */
  original?: boolean;
  /** A scan has two models: the splat (default) and its textured mesh. */
  show?: "splat" | "mesh";
}) {
  const { getToken, ready } = useAuth();
  const [token, setToken] = useState<string | null | undefined>(undefined);
  const { modelXorKey } = usePublicEnv();
  useEffect(() => {
    if (!ready) return;
    getToken().then(setToken, () => setToken(null));
  }, [ready, getToken]);
  const mesh = show === "mesh" && !!item.mesh_url;
  const url = mesh ? item.mesh_url! : original && item.original_url ? item.original_url : item.model_url;
  const format = mesh ? "glb" : original && item.original_url ? item.file_format : (item.delivered_format ?? item.file_format);
  // Only private models and the owner's original need the bearer token; the others start downloading
  // at once instead of after Firebase has restored the session (a second or more on a phone).
  const needsToken = modelDownloadNeedsToken(item, { original });
  if (needsToken && token === undefined) return null;
  const xorKey = xorKeyFromString(modelXorKey);
  const sceneParts = Array.isArray(item.scene_parts) ? item.scene_parts : null;
  let source: ModelViewerProps["source"];
  if (sceneParts) {
    const parts = sceneParts
      .filter((part) => part && typeof part.id === "string" && typeof part.url === "string" && part.url !== "")
      .map((part) => {
        const partFormat = part.delivered_format ?? part.file_format;
        return {
          id: part.id,
          url: part.url,
          token: needsToken ? token : null,
          xorKey,
          transform: part.transform,
          ...(partFormat ? { fileName: `model.${partFormat}` } : {}),
          ...(part.name ? { name: part.name } : {}),
        };
      });
    source = { parts };
  } else if (url) {
    const coarseUrl = url === item.model_url ? item.model_coarse_url : null;
    source = { url, token: needsToken ? token : null, xorKey, fileName: `model.${format ?? item.model_type}`, ...(coarseUrl ? { coarseUrl } : {}) };
  } else {
    return null;
  }
  return (
    <ModelViewer
      background={background ?? item.settings?.background ?? undefined}
      autorotate={autorotate ?? item.settings?.autorotate}
      autorotateSpeed={item.settings?.autorotate_speed}
      fov={item.settings?.fov ?? undefined}
      initialCamera={openingView(item.settings)}
      onViewer={onViewer}
      onReady={onReady}
      onError={onError}
      source={source}
      arModel={item.mesh_lite_url && !sceneParts ? { url: item.mesh_lite_url, token: needsToken ? token : null, xorKey } : null}
      arFiles={sceneParts ? null : arFilesOf(item)}
    />
  );
}

