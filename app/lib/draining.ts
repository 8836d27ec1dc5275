// Whether this process is shutting down (issue 19 item 4). Kept on globalThis because the server
// (server.ts) and the Remix build it loads are separate module graphs in one process.
const globalForDrain = globalThis as unknown as { __scanroomDraining?: boolean };

/** Called by the server on SIGTERM: from now on /readyz says 503, so a balancer stops sending. */
export function markDraining() {
  globalForDrain.__scanroomDraining = true;
}

export function isDraining(): boolean {
  return globalForDrain.__scanroomDraining === true;
}
