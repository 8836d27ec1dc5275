/**
 * Fullscreen for the viewer's frame. iPhone Safari has no element fullscreen (only video), so the
 * fallback there is a fixed, viewport-filling frame ("pseudo fullscreen") that Escape or the same
 * button undoes.
 */
type FullscreenDocument = Document & { webkitFullscreenElement?: Element | null; webkitExitFullscreen?: () => Promise<void> | void };
type FullscreenElement = HTMLElement & { webkitRequestFullscreen?: () => Promise<void> | void };

const PSEUDO_CLASS = "viewer-pseudo-fullscreen";
const PSEUDO_STYLE: Partial<CSSStyleDeclaration> = { position: "fixed", inset: "0", width: "100vw", height: "100dvh", zIndex: "2147483000" };

function nativeFullscreenElement(): Element | null {
  const doc = document as FullscreenDocument;
  return doc.fullscreenElement ?? doc.webkitFullscreenElement ?? null;
}

export function isFullscreen(element: HTMLElement): boolean {
  return nativeFullscreenElement() === element || element.classList.contains(PSEUDO_CLASS);
}

function setPseudoFullscreen(element: HTMLElement, on: boolean): void {
  element.classList.toggle(PSEUDO_CLASS, on);
  for (const [name, value] of Object.entries(PSEUDO_STYLE)) {
    element.style.setProperty(name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), on ? String(value) : "");
  }
  element.dispatchEvent(new Event("fullscreenchange", { bubbles: true }));
}

/** Enters or leaves fullscreen for `element`; resolves with the new state. */
export async function toggleFullscreen(element: HTMLElement): Promise<boolean> {
  const doc = document as FullscreenDocument;
  if (isFullscreen(element)) {
    if (element.classList.contains(PSEUDO_CLASS)) setPseudoFullscreen(element, false);
    else await (doc.exitFullscreen?.() ?? doc.webkitExitFullscreen?.());
    return false;
  }
  const target = element as FullscreenElement;
  try {
    if (target.requestFullscreen) await target.requestFullscreen({ navigationUI: "hide" });
    else if (target.webkitRequestFullscreen) await target.webkitRequestFullscreen();
    else throw new Error("no element fullscreen");
  } catch {
    setPseudoFullscreen(element, true);
  }
  return true;
}

/** Calls `listener` when `element` enters or leaves fullscreen; returns the unsubscribe function. */
export function onFullscreenChange(element: HTMLElement, listener: (fullscreen: boolean) => void): () => void {
  const handler = () => listener(isFullscreen(element));
  const onKey = (event: KeyboardEvent) => {
    if (event.key === "Escape" && element.classList.contains(PSEUDO_CLASS)) setPseudoFullscreen(element, false);
  };
  document.addEventListener("fullscreenchange", handler);
  document.addEventListener("webkitfullscreenchange", handler);
  element.addEventListener("fullscreenchange", handler);
  document.addEventListener("keydown", onKey);
  return () => {
    document.removeEventListener("fullscreenchange", handler);
    document.removeEventListener("webkitfullscreenchange", handler);
    element.removeEventListener("fullscreenchange", handler);
    document.removeEventListener("keydown", onKey);
  };
}
