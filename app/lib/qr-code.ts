/**
 * A QR code of `text` as an SVG data URL for an <img> (no markup inserted into the page). The encoder loads only
 * when a QR code is first asked for (the Share panel's, the viewer's "View in AR").
 */
export async function qrCodeDataUrl(text: string, margin = 2): Promise<string> {
  const QRCode = await import("qrcode");
  const svg = await QRCode.toString(text, { type: "svg", margin, errorCorrectionLevel: "M" });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
