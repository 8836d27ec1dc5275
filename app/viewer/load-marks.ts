/** A User Timing mark of the viewer's load path (DevTools' timeline, the viewer bench's breakdown; issue 20). */
export function markLoad(name: string): void {
  if (typeof performance !== "undefined" && typeof performance.mark === "function") performance.mark(`viewer:${name}`);
}
