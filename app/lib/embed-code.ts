/** The share link and iframe code of an item, on the site's public address. */
export function shareUrl(appUrl: string, itemId: string): string {
  return new URL(`/item/${itemId}`, appUrl).toString();
}

export function embedCode(appUrl: string, item: { id: string; name: string }): string {
  const src = new URL(`/embed/${item.id}`, appUrl).toString();
  const title = item.name.replace(/[&"<>]/g, (c) => ({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;" })[c]!);
  return `<iframe src="${src}" title="${title}" width="640" height="480" style="border:0" allow="fullscreen; xr-spatial-tracking" allowfullscreen></iframe>`;
}
