import { Button } from "primereact/button";
import { useEffect, useState } from "react";
import { qrCodeDataUrl } from "~/lib/qr-code";
import { shareTargets } from "~/lib/share-targets";

/**
 * Share a model (issue 35 item 2): X, Facebook, Reddit and e-mail with its link and title, the phone's own share
 * sheet where the browser has one, and a QR code — a phone pointed at the screen opens the model, and from there
 * "View in your space". The QR code is made in the browser, only when asked for.
 */
export function ShareButtons({ url, title }: { url: string; title: string }) {
  const [canShare, setCanShare] = useState(false);
  const [qr, setQr] = useState<string | null>(null);
  const [showQr, setShowQr] = useState(false);
  useEffect(() => setCanShare(typeof navigator !== "undefined" && typeof navigator.share === "function"), []);
  useEffect(() => {
    if (!showQr || qr) return;
    let cancelled = false;
    qrCodeDataUrl(url)
      .then((src) => !cancelled && setQr(src))
      .catch(() => !cancelled && setShowQr(false));
    return () => {
      cancelled = true;
    };
  }, [showQr, qr, url]);
  useEffect(() => setQr(null), [url]);

  return (
    <div className="share-buttons" data-testid="share-buttons">
      <ul className="share-targets" aria-label="Share on">
        {shareTargets(url, title).map((target) => (
          <li key={target.id}>
            <a
              href={target.href}
              className="p-button p-button-outlined p-button-sm"
              target={target.id === "email" ? undefined : "_blank"}
              rel="noopener noreferrer"
              data-share={target.id}
            >
              <i className={target.icon} aria-hidden="true" />
              &nbsp;{target.label}
            </a>
          </li>
        ))}
        {canShare ? (
          <li>
            <Button
              type="button"
              size="small"
              outlined
              icon="pi pi-share-alt"
              label="More…"
              onClick={() => void navigator.share({ title, url }).catch(() => undefined)}
            />
          </li>
        ) : null}
        <li>
          <Button
            type="button"
            size="small"
            outlined
            icon="pi pi-qrcode"
            label={showQr ? "Hide QR code" : "QR code"}
            aria-expanded={showQr}
            aria-controls="share-qr"
            onClick={() => setShowQr(!showQr)}
          />
        </li>
      </ul>
      {showQr ? (
        <figure id="share-qr" className="share-qr">
          {qr ? <img src={qr} width={168} height={168} alt={`QR code of ${url}`} data-testid="share-qr" /> : <span className="pi pi-spin pi-spinner" aria-label="Making the QR code" />}
          <figcaption className="item-panel-note">Point a phone’s camera at it to open this model there, and view it in your space.</figcaption>
        </figure>
      ) : null}
    </div>
  );
}
