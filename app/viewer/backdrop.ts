/**
 * The three.js side of a viewer background (background.ts, decision 053): a Color for a plain colour, a screen-filling
 * texture for a vertical gradient, and for an environment an equirectangular picture drawn by our own code — shown
 * around the model (it turns with the camera) and, for meshes, lighting them through PMREMGenerator.
 */
import {
  ClampToEdgeWrapping,
  Color,
  DataTexture,
  EquirectangularReflectionMapping,
  FloatType,
  LinearFilter,
  LinearSRGBColorSpace,
  NearestFilter,
  RepeatWrapping,
  RGBAFormat,
  SRGBColorSpace,
  UnsignedByteType,
  type Texture,
} from "three";
import { backgroundRowColour, backgroundStops, environmentPixels, environmentRadiance, hexToRgb, type EnvironmentName, type ViewerBackground } from "./background";

/** Rows of a gradient's texture: fine enough that 8-bit steps, not texels, are what the eye could see. */
const GRADIENT_ROWS = 256;
/** Width of an environment's picture (height half of it): its colours change slowly, its lights are 6°–18° wide. */
const ENVIRONMENT_WIDTH = 512;

export interface Backdrop {
  /** What scene.background is set to. */
  readonly background: Color | Texture;
  /** The colour a frame is cleared with before the background is drawn (the top of a gradient). */
  readonly clearColor: Color;
  /**
   * An environment's light for meshes (else the viewer's RoomEnvironment lights them), made on first use: the
   * picture in linear floats with its lights brighter than any 8-bit colour; null for a colour or a gradient.
   */
  readonly environmentPicture: (() => Texture) | null;
  dispose(): void;
}

export function createBackdrop(background: ViewerBackground | null | undefined): Backdrop {
  const stops = backgroundStops(background).map(hexToRgb);
  const clearColor = new Color().setRGB(...stops[0], SRGBColorSpace);
  if (!background || typeof background === "string") return { background: clearColor.clone(), clearColor, environmentPicture: null, dispose: () => undefined };
  if (background.type === "gradient") {
    // A DataTexture's first row is v = 0, the bottom of the screen-filling background plane.
    const data = new Uint8Array(GRADIENT_ROWS * 4);
    for (let row = 0; row < GRADIENT_ROWS; row++) {
      const rgb = backgroundRowColour(stops, GRADIENT_ROWS - 1 - row, GRADIENT_ROWS);
      data.set([Math.round(rgb[0] * 255), Math.round(rgb[1] * 255), Math.round(rgb[2] * 255), 255], row * 4);
    }
    const texture = pictureTexture(data, 1, GRADIENT_ROWS);
    texture.wrapS = ClampToEdgeWrapping;
    return { background: texture, clearColor, environmentPicture: null, dispose: () => texture.dispose() };
  }
  const width = ENVIRONMENT_WIDTH;
  const texture = pictureTexture(environmentPixels(background.name, width), width, width / 2);
  texture.mapping = EquirectangularReflectionMapping;
  texture.wrapS = RepeatWrapping;
  let light: DataTexture | null = null;
  return {
    background: texture,
    clearColor,
    environmentPicture: () => (light ??= lightTexture(background.name)),
    dispose: () => {
      texture.dispose();
      light?.dispose();
    },
  };
}

/** Lights are small: a quarter of the picture's width is enough for PMREM's blurred levels. */
const LIGHT_WIDTH = 256;

function lightTexture(name: EnvironmentName): DataTexture {
  const texture = new DataTexture(environmentRadiance(name, LIGHT_WIDTH), LIGHT_WIDTH, LIGHT_WIDTH / 2, RGBAFormat, FloatType);
  texture.colorSpace = LinearSRGBColorSpace;
  texture.mapping = EquirectangularReflectionMapping;
  // Linear filtering of 32-bit floats is an extension WebGL 2 may lack; PMREM blurs it anyway.
  texture.magFilter = NearestFilter;
  texture.minFilter = NearestFilter;
  texture.wrapS = RepeatWrapping;
  texture.generateMipmaps = false;
  texture.needsUpdate = true;
  return texture;
}

function pictureTexture(data: Uint8Array, width: number, height: number): DataTexture {
  const texture = new DataTexture(data, width, height, RGBAFormat, UnsignedByteType);
  texture.colorSpace = SRGBColorSpace; // shown as drawn: three does not tone map an sRGB background
  texture.magFilter = LinearFilter;
  texture.minFilter = LinearFilter;
  texture.wrapT = ClampToEdgeWrapping;
  texture.generateMipmaps = false;
  texture.needsUpdate = true;
  return texture;
}
