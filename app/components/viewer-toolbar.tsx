/**
 * The viewer's buttons, over the canvas once a model is shown: reset view, fly mode, fullscreen and
 * "View in your space" (AR, glTF models on phones and tablets that offer it). Where the browser has no AR (a
 * desktop) but the model could be placed, "View in AR" shows a QR code of this page for a phone (issue 35 item 1).
 * Each names its key.
 */
import { useEffect, useState, type CSSProperties, type RefObject } from "react";
import type { ArSupport, NavigationMode, Viewer } from "../viewer";
import { isFullscreen, onFullscreenChange } from "../viewer/fullscreen";
import { qrCodeDataUrl } from "../lib/qr-code";

const styles = {
  bar: { position: "absolute", right: 10, bottom: 10, display: "flex", gap: 6, alignItems: "center", zIndex: 2 },
  button: {
    minWidth: 36,
    height: 36,
    padding: "0 10px",
    border: "1px solid rgba(255, 255, 255, 0.25)",
    borderRadius: 18,
    background: "rgba(20, 21, 24, 0.72)",
    color: "#f2f2f4",
    font: "13px/1 system-ui, sans-serif",
    display: "inline-flex",
    alignItems: "center",
    gap: 6,
    cursor: "pointer",
  },
  pressed: { background: "rgba(79, 140, 255, 0.85)", borderColor: "rgba(79, 140, 255, 1)" },
  qr: {
    position: "absolute",
    right: 10,
    bottom: 54,
    width: 220,
    padding: 12,
    borderRadius: 8,
    background: "#fff",
    color: "#1f2937",
    font: "13px/1.4 system-ui, sans-serif",
    boxShadow: "0 4px 16px rgba(0, 0, 0, 0.35)",
    zIndex: 3,
    textAlign: "center",
  },
  message: {
    position: "absolute",
    right: 10,
    bottom: 54,
    maxWidth: "min(360px, 80%)",
    padding: "6px 10px",
    borderRadius: 6,
    background: "rgba(20, 21, 24, 0.85)",
    color: "#fff",
    font: "13px/1.4 system-ui, sans-serif",
  },
} satisfies Record<string, CSSProperties>;

export function ViewerToolbar({ viewer, frame }: { viewer: Viewer; frame: RefObject<HTMLElement | null> }) {
  const [mode, setMode] = useState<NavigationMode>(viewer.navigationMode);
  const [fullscreen, setFullscreen] = useState(false);
  const [ar, setAr] = useState<ArSupport | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [placeable, setPlaceable] = useState(false);
  const [qr, setQr] = useState<string | null>(null);
  const [showQr, setShowQr] = useState(false);

  useEffect(() => viewer.on("navigation", setMode), [viewer]);
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    setFullscreen(isFullscreen(element));
    return onFullscreenChange(element, (on) => {
      setFullscreen(on);
      viewer.resize();
    });
  }, [frame, viewer]);
  useEffect(() => {
    let live = true;
    viewer.arSupport().then(
      (support) => {
        if (!live) return;
        setAr(support);
        setPlaceable(viewer.canPlaceInAr());
      },
      () => live && setAr(null),
    );
    return () => {
      live = false;
    };
  }, [viewer]);
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), 6_000);
    return () => clearTimeout(timer);
  }, [message]);

  // The QR code of this page (a phone opening it gets "View in your space"), made when first asked for.
  useEffect(() => {
    if (!showQr || qr) return;
    let live = true;
    qrCodeDataUrl(window.location.href, 1)
      .then((src) => live && setQr(src))
      .catch(() => live && setShowQr(false));
    return () => {
      live = false;
    };
  }, [showQr, qr]);

  const fly = mode === "fly";
  const phoneAr = !!ar && (ar.webxr || ar.quickLook || ar.sceneViewer);
  return (
    <>
      <div className="mv-toolbar" style={styles.bar} role="toolbar" aria-label="Viewer controls">
        <button type="button" style={styles.button} onClick={() => viewer.resetView()} aria-label="Reset view" title="Reset view (R)">
          <i className="pi pi-refresh" aria-hidden="true" />
        </button>
        <button
          type="button"
          style={fly ? { ...styles.button, ...styles.pressed } : styles.button}
          aria-pressed={fly}
          onClick={() => viewer.setNavigationMode(fly ? "orbit" : "fly")}
          aria-label="Fly mode"
          title={fly ? "Fly mode: drag to look, W A S D to move, Q/E down/up (M or Esc to leave)" : "Fly mode (M)"}
        >
          <i className="pi pi-send" aria-hidden="true" />
        </button>
        <button
          type="button"
          style={fullscreen ? { ...styles.button, ...styles.pressed } : styles.button}
          aria-pressed={fullscreen}
          onClick={() => void viewer.toggleFullscreen()}
          aria-label="Full screen"
          title="Full screen (F)"
        >
          <i className={fullscreen ? "pi pi-window-minimize" : "pi pi-window-maximize"} aria-hidden="true" />
        </button>
        {!phoneAr && placeable ? (
          <button type="button" style={showQr ? { ...styles.button, ...styles.pressed } : styles.button} aria-expanded={showQr} onClick={() => setShowQr(!showQr)}>
            <i className="pi pi-qrcode" aria-hidden="true" /> View in AR
          </button>
        ) : null}
        {phoneAr ? (
          <button
            type="button"
            style={styles.button}
            onClick={() => viewer.viewInAr().catch((error: unknown) => setMessage(error instanceof Error ? error.message : String(error)))}
          >
            <i className="pi pi-box" aria-hidden="true" /> View in your space
          </button>
        ) : null}
      </div>
      {showQr && !phoneAr ? (
        <div role="dialog" aria-label="View in AR on your phone" style={styles.qr} data-testid="ar-qr">
          {qr ? <img src={qr} width={180} height={180} alt="QR code of this page" style={{ display: "block", margin: "0 auto 8px" }} /> : null}
          Point your phone’s camera here, open the page, and tap “View in your space” to place the model in your room.
        </div>
      ) : null}
      {message ? (
        <div role="alert" style={styles.message}>
          {message}
        </div>
      ) : null}
    </>
  );
}
