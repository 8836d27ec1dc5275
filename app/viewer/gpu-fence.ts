/**
 * Waits until the GPU has executed every command issued so far, without blocking the main thread
 * (WebGL2 fence polled once per tick). Software rasterisers and first-time shader compilation can
 * finish long after renderer.render() returns; "ready" should mean the pixels are there.
 */
export async function waitForGpu(gl: WebGLRenderingContext | WebGL2RenderingContext, timeoutMs = 15_000): Promise<void> {
  if (typeof WebGL2RenderingContext === "undefined" || !(gl instanceof WebGL2RenderingContext)) return;
  const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  if (!sync) return;
  gl.flush();
  const deadline = performance.now() + timeoutMs;
  try {
    while (!gl.isContextLost() && performance.now() < deadline) {
      if (gl.getSyncParameter(sync, gl.SYNC_STATUS) === gl.SIGNALED) return;
      await new Promise((resolve) => setTimeout(resolve, 16));
    }
  } finally {
    if (!gl.isContextLost()) gl.deleteSync(sync);
  }
}
