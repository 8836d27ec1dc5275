/**
 * One frame of gaussian splats in plain WebGL2, for the early splats (index.ts): no three.js, no Spark, no
 * WASM. Each splat is a screen-space quad over its projected 2D gaussian (the 3DGS projection: Σ' = J W Σ Wᵀ Jᵀ,
 * plus 0.3 px² of low-pass), drawn back to front with premultiplied alpha over a transparent canvas, so the
 * page's background shows where the viewer's clear colour would. Sorted once on the CPU: it draws one still frame.
 */
import type { OpeningCamera } from "../camera-fit";
import type { RgbaImage, SogSplats } from "./sog-splats";

const VERTEX = `#version 300 es
precision highp float;
uniform mat4 view;
uniform mat4 projection;
uniform vec2 viewport;
uniform float focal;
in vec2 corner;
in vec3 center;
in vec3 covA;
in vec3 covB;
in vec4 color;
out vec4 vColor;
out vec2 vOffset;
void main() {
  vec4 cam = view * vec4(center, 1.0);
  vec4 clip = projection * cam;
  float depth = -cam.z;
  if (depth <= 0.0 || clip.z < -clip.w || any(greaterThan(abs(clip.xy), vec2(1.3 * clip.w)))) {
    gl_Position = vec4(0.0, 0.0, 2.0, 1.0);
    return;
  }
  mat3 sigma = mat3(covA.x, covA.y, covA.z, covA.y, covB.x, covB.y, covA.z, covB.y, covB.z);
  mat3 w = mat3(view);
  // Rows of J (pixels per unit of camera space), as columns of the transposed matrix GLSL builds.
  mat3 j = mat3(focal / depth, 0.0, 0.0,  0.0, focal / depth, 0.0,  focal * cam.x / (depth * depth), focal * cam.y / (depth * depth), 0.0);
  mat3 t = j * w;
  mat3 projected = t * sigma * transpose(t);
  float a = projected[0][0] + 0.3;
  float b = projected[0][1];
  float c = projected[1][1] + 0.3;
  float mid = 0.5 * (a + c);
  float radius = length(vec2(0.5 * (a - c), b));
  float major = mid + radius;
  float minor = mid - radius;
  if (minor <= 0.0) {
    gl_Position = vec4(0.0, 0.0, 2.0, 1.0);
    return;
  }
  vec2 axis = abs(b) > 1e-9 ? normalize(vec2(b, major - a)) : (a >= c ? vec2(1.0, 0.0) : vec2(0.0, 1.0));
  vec2 pixels = corner.x * min(sqrt(major), 1024.0) * axis + corner.y * min(sqrt(minor), 1024.0) * vec2(-axis.y, axis.x);
  vColor = color;
  vOffset = corner;
  gl_Position = vec4(clip.xy / clip.w + 2.0 * pixels / viewport, 0.0, 1.0);
}`;

const FRAGMENT = `#version 300 es
precision highp float;
in vec4 vColor;
in vec2 vOffset;
out vec4 fragColor;
void main() {
  float alpha = vColor.a * exp(-0.5 * dot(vOffset, vOffset));
  if (alpha < 1.0 / 255.0) discard;
  fragColor = vec4(vColor.rgb * alpha, alpha);
}`;

/** Quads reach 3 standard deviations, where a gaussian has fallen to 1 %. */
const EXTENT = 3;

function compile(gl: WebGL2RenderingContext, type: number, source: string): WebGLShader {
  const shader = gl.createShader(type)!;
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(shader) ?? "shader compile failed");
  return shader;
}

function program(gl: WebGL2RenderingContext): WebGLProgram {
  const linked = gl.createProgram()!;
  gl.attachShader(linked, compile(gl, gl.VERTEX_SHADER, VERTEX));
  gl.attachShader(linked, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
  gl.linkProgram(linked);
  if (!gl.getProgramParameter(linked, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(linked) ?? "program link failed");
  return linked;
}

type Vec3 = readonly [number, number, number];
const sub = (a: Vec3, b: Vec3): [number, number, number] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): [number, number, number] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const normalize = (a: Vec3): [number, number, number] => {
  const length = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / length, a[1] / length, a[2] / length];
};

/** three.js's lookAt with +Y up, as a column-major view matrix; and the camera's forward axis. */
function viewMatrix(camera: OpeningCamera): { matrix: Float32Array; forward: [number, number, number] } {
  const forward = normalize(sub(camera.target, camera.position));
  let right = cross(forward, [0, 1, 0]);
  if (Math.hypot(...right) < 1e-6) right = [1, 0, 0]; // looking straight up or down
  right = normalize(right);
  const up = cross(right, forward);
  const p = camera.position;
  // prettier-ignore
  const matrix = new Float32Array([
    right[0], up[0], -forward[0], 0,
    right[1], up[1], -forward[1], 0,
    right[2], up[2], -forward[2], 0,
    -dot(right, p), -dot(up, p), dot(forward, p), 1,
  ]);
  return { matrix, forward };
}

/** three.js's PerspectiveCamera projection (vertical field of view), column-major. */
function projectionMatrix(camera: OpeningCamera, aspect: number): Float32Array {
  const f = 1 / Math.tan((camera.fov * Math.PI) / 360);
  const { near, far } = camera;
  // prettier-ignore
  return new Float32Array([
    f / aspect, 0, 0, 0,
    0, f, 0, 0,
    0, 0, -(far + near) / (far - near), -1,
    0, 0, (-2 * far * near) / (far - near), 0,
  ]);
}

/** Splat indices from the farthest to the nearest along the camera's forward axis. */
export function backToFront(centers: Float32Array, count: number, position: Vec3, forward: Vec3): Uint32Array {
  const depths = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    depths[i] = (centers[i * 3]! - position[0]) * forward[0] + (centers[i * 3 + 1]! - position[1]) * forward[1] + (centers[i * 3 + 2]! - position[2]) * forward[2];
  }
  return new Uint32Array(count).map((_, i) => i).sort((a, b) => depths[b]! - depths[a]!);
}

/** Draws the splats seen by `camera` into the context's canvas (its current size) and waits until the frame is drawn. */
export function drawSplats(gl: WebGL2RenderingContext, splats: SogSplats, camera: OpeningCamera): void {
  const { width, height } = gl.canvas;
  const { matrix, forward } = viewMatrix(camera);
  const order = backToFront(splats.centers, splats.count, camera.position, forward);
  // One interleaved buffer in drawing order: centre (3 floats), covariance (6 floats), colour (4 bytes).
  const stride = 9 * 4 + 4;
  const data = new ArrayBuffer(splats.count * stride);
  const floats = new Float32Array(data);
  const bytes = new Uint8Array(data);
  order.forEach((index, slot) => {
    floats.set(splats.centers.subarray(index * 3, index * 3 + 3), (slot * stride) / 4);
    floats.set(splats.covariances.subarray(index * 6, index * 6 + 6), (slot * stride) / 4 + 3);
    bytes.set(splats.colors.subarray(index * 4, index * 4 + 4), slot * stride + 36);
  });
  const linked = program(gl);
  gl.useProgram(linked);
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  const corners = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, corners);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-EXTENT, -EXTENT, EXTENT, -EXTENT, -EXTENT, EXTENT, EXTENT, EXTENT]), gl.STATIC_DRAW);
  const cornerAt = gl.getAttribLocation(linked, "corner");
  gl.enableVertexAttribArray(cornerAt);
  gl.vertexAttribPointer(cornerAt, 2, gl.FLOAT, false, 0, 0);
  const instances = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, instances);
  gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
  const attribute = (name: string, size: number, type: number, normalized: boolean, offset: number) => {
    const at = gl.getAttribLocation(linked, name);
    gl.enableVertexAttribArray(at);
    gl.vertexAttribPointer(at, size, type, normalized, stride, offset);
    gl.vertexAttribDivisor(at, 1);
  };
  attribute("center", 3, gl.FLOAT, false, 0);
  attribute("covA", 3, gl.FLOAT, false, 12);
  attribute("covB", 3, gl.FLOAT, false, 24);
  attribute("color", 4, gl.UNSIGNED_BYTE, true, 36);
  const focal = height / 2 / Math.tan((camera.fov * Math.PI) / 360);
  gl.uniformMatrix4fv(gl.getUniformLocation(linked, "view"), false, matrix);
  gl.uniformMatrix4fv(gl.getUniformLocation(linked, "projection"), false, projectionMatrix(camera, width / height));
  gl.uniform2f(gl.getUniformLocation(linked, "viewport"), width, height);
  gl.uniform1f(gl.getUniformLocation(linked, "focal"), focal);
  gl.viewport(0, 0, width, height);
  gl.clearColor(0, 0, 0, 0);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.disable(gl.DEPTH_TEST);
  gl.enable(gl.BLEND);
  gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
  gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, splats.count);
  gl.finish(); // returns when the frame is drawn, as the viewer's first frame is measured (gpu-fence.ts)
}

/**
 * The RGBA bytes of a decoded image, exactly as stored (no premultiplication, no colour conversion: a SOG's
 * pixels are data), read back through a texture.
 */
export function imageBytes(gl: WebGL2RenderingContext, bitmap: ImageBitmap): RgbaImage {
  const { width, height } = bitmap;
  const texture = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
  gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
  gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
  const framebuffer = gl.createFramebuffer();
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
  const rgba = new Uint8Array(width * height * 4);
  gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, rgba);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.deleteFramebuffer(framebuffer);
  gl.deleteTexture(texture);
  return { width, height, rgba };
}
