import { useMemo, useRef, type RefObject } from "react";
import type { Viewer } from "~/viewer";
import type { ViewerBackground } from "~/viewer/background";

/** How the viewer looks: what the Viewer settings panel previews on the page's viewer before they are saved. */
export interface ViewerLook {
  background: ViewerBackground | null;
  autorotate: boolean;
  /** A multiple of the normal pace. */
  autorotateSpeed: number;
  /** Vertical field of view, degrees. */
  fov: number;
}

/**
 * The owner's unsaved viewer settings shown on the page's viewer at once (issue 35 item 6): `show` applies a look,
 * remembering the first time how the viewer looked before; `restore` goes back to that (Cancel, closing the dialog or
 * leaving the tab without saving); `keep` forgets it once the look is saved.
 */
export interface ViewerPreview {
  show(look: ViewerLook): void;
  restore(): void;
  keep(): void;
}

/** Autorotate speed 1 turns OrbitControls at this autoRotateSpeed (viewer-core.ts). */
const CONTROLS_PACE = 1.5;

export function useViewerPreview(viewerRef: RefObject<Viewer | null>, savedBackground: ViewerBackground | null): ViewerPreview {
  const before = useRef<{ viewer: Viewer; look: ViewerLook } | null>(null);
  const saved = useRef(savedBackground);
  saved.current = savedBackground;
  return useMemo(() => {
    const apply = (viewer: Viewer, look: ViewerLook) => {
      viewer.setBackground(look.background);
      viewer.setFieldOfView(look.fov);
      viewer.setAutorotate(look.autorotate, look.autorotateSpeed);
    };
    return {
      show(look) {
        const viewer = viewerRef.current;
        if (!viewer) return;
        if (before.current?.viewer !== viewer) {
          const { camera, controls } = viewer.stage;
          before.current = {
            viewer,
            look: { background: saved.current, autorotate: controls.autoRotate, autorotateSpeed: controls.autoRotateSpeed / CONTROLS_PACE, fov: camera.fov },
          };
        }
        apply(viewer, look);
      },
      restore() {
        const previous = before.current;
        before.current = null;
        if (previous && previous.viewer === viewerRef.current) apply(previous.viewer, previous.look);
      },
      keep() {
        before.current = null;
      },
    };
  }, [viewerRef]);
}
