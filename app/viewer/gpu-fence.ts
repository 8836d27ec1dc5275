/**
 * Waits until the GPU has executed every command issued so far. Software rasterisers and first-time
 * shader compilation can finish long after renderer.render() returns; "ready" should mean the pixels are there.
 *
 * gl.finish(): one synchronous round trip to the GPU process, which returns once the frame is drawn. A WebGL2
 * fence polled every 16 ms (the way before issue 20) kept the main thread free, but Chromium reports its status
 * late: 9.4 s after a 90k-splat frame under SwiftShader, where finish() returns as soon as the frame is done.
 */
export function waitForGpu(gl: WebGLRenderingContext | WebGL2RenderingContext): void {
  if (!gl.isContextLost()) gl.finish();
}
