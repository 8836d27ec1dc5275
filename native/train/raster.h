// Gaussian-splat rasterization on the CPU, forward and backward (3DGS, Kerbl et al. 2023): EWA projection
// of anisotropic 3D gaussians, 16×16 tiles with a per-tile depth order, front-to-back alpha compositing.
// A gaussian is drawn inside its cut-off ellipse — 3σ, or nearer where its opacity falls below 1/255 first —
// and binned only to the tiles that ellipse reaches (not a square around it). The fast path threads over tiles
// (OpenMP) and runs each tile gaussian by gaussian over rows of 16 pixels in SIMD lanes: AVX2 + FMA where the CPU
// has them, the baseline x86-64 (or other) build otherwise. `renderReference` is the plain per-pixel version kept
// for tests.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sr::train {

constexpr int kTile = 16;
constexpr float kSHC0 = 0.28209479177387814f;
constexpr float kMinAlpha = 1.f / 255.f;
constexpr float kMaxAlpha = 0.99f;
constexpr float kMinTransmittance = 1e-4f;
constexpr float kLowPass = 0.3f;
// A gaussian is not drawn beyond 3σ: exponent −½·3².
constexpr float kCutoffPower = -4.5f;
// Gaussians whose centre lies beyond this many half fields of view are not drawn.
constexpr float kFrustumMargin = 1.3f;
constexpr int kMaxShDegree = 3;
constexpr int kShRest = 15;  // SH coefficients above degree 0 at degree 3: 3 + 5 + 7

// How many coefficients above degree 0 a degree uses: 0, 3, 8, 15.
constexpr int shRestOf(int degree) { return (degree + 1) * (degree + 1) - 1; }

// Parameters as optimised: log-scales, unnormalised quaternions (w x y z), opacity logits, SH DC colour and
// the higher SH coefficients (always room for degree 3; `shDegree` says how many are in use — the colour of a
// gaussian is 0.5 + C0·dc + Σ basis_k(view direction)·sh_k, as 3DGS).
struct Gaussians {
  std::vector<float> mean, logScale, quat, opacity, color;  // 3N, 3N, 4N, N, 3N
  std::vector<float> sh;                                    // 45N: per gaussian 15 coefficients × (r g b), coefficient-major
  int shDegree = 0;                                         // 0–3
  size_t size() const { return opacity.size(); }
  void resize(size_t n) {
    mean.resize(3 * n), logScale.resize(3 * n), quat.resize(4 * n), opacity.resize(n), color.resize(3 * n), sh.resize(3 * kShRest * n);
  }
};

// The real SH basis functions of degree 1..degree at a unit direction (x y z), written to out[0..shRestOf(degree)).
// A template so that the backward pass can evaluate it on dual numbers.
template <typename T>
void shBasis(const T& x, const T& y, const T& z, int degree, T* out) {
  if (degree < 1) return;
  const float C1 = 0.4886025119029199f;
  out[0] = -C1 * y, out[1] = C1 * z, out[2] = -C1 * x;
  if (degree < 2) return;
  const T xx = x * x, yy = y * y, zz = z * z;
  out[3] = 1.0925484305920792f * (x * y);
  out[4] = -1.0925484305920792f * (y * z);
  out[5] = 0.31539156525252005f * (2.f * zz - xx - yy);
  out[6] = -1.0925484305920792f * (x * z);
  out[7] = 0.5462742152960396f * (xx - yy);
  if (degree < 3) return;
  out[8] = -0.5900435899266435f * (y * (3.f * xx - yy));
  out[9] = 2.890611442640554f * (x * y * z);
  out[10] = -0.4570457994644658f * (y * (4.f * zz - xx - yy));
  out[11] = 0.3731763325901154f * (z * (2.f * zz - 3.f * xx - 3.f * yy));
  out[12] = -0.4570457994644658f * (x * (4.f * zz - xx - yy));
  out[13] = 1.445305721320277f * (z * (xx - yy));
  out[14] = -0.5900435899266435f * (x * (xx - 3.f * yy));
}

// Colour of gaussian i seen from `cameraCenter` (before the clamp at 0).
void shColor(const Gaussians& gs, size_t i, const float cameraCenter[3], float rgb[3]);

// A pinhole camera: world → camera rotation R (row-major) and translation t, focal lengths and principal point in pixels.
struct Camera {
  float R[9];
  float t[3];
  float fx, fy, cx, cy;
  int width, height;
  // Gaussians nearer than this (camera z) are not drawn: fusion leaves stray points next to the cameras,
  // which would cover the whole view.
  float near = 0.01f;
  // The camera's centre in the world, −Rᵀt.
  void center(float c[3]) const {
    for (int k = 0; k < 3; k++) c[k] = -(R[k] * t[0] + R[3 + k] * t[1] + R[6 + k] * t[2]);
  }
};

// A camera and its photo at that camera's size (RGB floats, camera.width × camera.height), as what trained it.
struct PhotoView {
  const Camera* camera;
  const std::vector<float>* pixels;
};

// The same view for an image `factor` times the size (coarse-to-fine training): intrinsics scaled by the
// rounded size's own ratio, so pixel centres stay where an area-averaged resize puts them.
Camera scaledCamera(Camera c, float factor);

// A projected gaussian as the tiles read it (one cache line's worth, together).
struct ScreenSplat {
  float u, v;        // centre in pixels
  float conic[3];    // a b c of the inverse 2D covariance: exponent −½(a dx² + c dy²) − b dx dy
  float alpha0;      // sigmoid(opacity)
  float cutoff;      // below this exponent it is not drawn (3σ, or alpha < 1/255)
  float halfWidth;   // the cut-off ellipse's horizontal half extent, pixels
  float halfHeight;  // and its vertical one
  float rgb[3];      // colour seen from this camera, clamped at 0
  float depth;       // camera z
};

// What the forward pass keeps for the backward pass.
struct Projected {
  std::vector<ScreenSplat> splats;    // N (valid where radius > 0)
  std::vector<int> radius;            // N: the cut-off ellipse's larger half extent in whole pixels, 0 = not drawn
  std::vector<uint32_t> tileOffsets;  // tiles+1
  std::vector<uint32_t> tileList;     // gaussian indices, by tile then depth
};

// Which tile kernel render() and backward() use. Avx2 (AVX2 + FMA lanes) is the default where the CPU has it.
enum class RasterKernel { Baseline, Avx2 };
RasterKernel rasterKernel();
// False (and nothing changed) when the CPU cannot run `kernel`.
bool setRasterKernel(RasterKernel kernel);
const char* rasterKernelName(RasterKernel kernel);

struct Render {
  int width = 0, height = 0;
  std::vector<float> rgb;          // 3 per pixel
  std::vector<float> transmittance;  // final T per pixel
  std::vector<uint32_t> lastIndex;   // per pixel: how many of its tile's list it went through
  Projected proj;
};

// Gradients of the loss with respect to the parameters (same layout as Gaussians), and the view-space
// mean gradient magnitude per gaussian (for densification).
struct Gradients {
  Gaussians g;
  std::vector<float> meanScreen;  // N: |dL/d(u,v)| in pixels
};

void render(const Gaussians& gs, const Camera& cam, const float background[3], Render& out);
// dLdPixel: 3 per pixel. Adds into grads (sized like gs).
void backward(const Gaussians& gs, const Camera& cam, const float background[3], const Render& fwd, const std::vector<float>& dLdPixel,
              Gradients& grads);

// The slow, obviously-correct version: every pixel against every gaussian, sorted by depth.
void renderReference(const Gaussians& gs, const Camera& cam, const float background[3], std::vector<float>& rgb);

}  // namespace sr::train
