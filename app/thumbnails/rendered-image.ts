/** What the thumbnail renderers produce: sRGB colour in 0..1, 3 floats a pixel, rows top to bottom, background composited. */
export interface RenderedImage {
  width: number;
  height: number;
  rgb: Float32Array;
  /** How much of each pixel the model covers (0..1, before the background), one value a pixel. */
  alpha?: Float32Array;
}
