// Gaussian-splat rasterization on the CPU, forward and backward (3DGS, Kerbl et al. 2023): EWA projection
// of anisotropic 3D gaussians, 16×16 tiles with a per-tile depth order, front-to-back alpha compositing.
// The fast path threads over tiles (OpenMP); `renderReference` is the plain per-pixel version kept for tests.
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

// Parameters as optimised: log-scales, unnormalised quaternions (w x y z), opacity logits, SH DC colour.
struct Gaussians {
  std::vector<float> mean, logScale, quat, opacity, color;  // 3N, 3N, 4N, N, 3N
  size_t size() const { return opacity.size(); }
  void resize(size_t n) {
    mean.resize(3 * n), logScale.resize(3 * n), quat.resize(4 * n), opacity.resize(n), color.resize(3 * n);
  }
};

// A pinhole camera: world → camera rotation R (row-major) and translation t, focal lengths and principal point in pixels.
struct Camera {
  float R[9];
  float t[3];
  float fx, fy, cx, cy;
  int width, height;
  // Gaussians nearer than this (camera z) are not drawn: fusion leaves stray points next to the cameras,
  // which would cover the whole view.
  float near = 0.01f;
};

// What the forward pass keeps for the backward pass.
struct Projected {
  std::vector<float> uv, conic, depth, rgb, alpha0;  // 2N, 3N (a b c), N, 3N, N (sigmoid(opacity))
  std::vector<float> minPower;                       // N: below this exponent, alpha < 1/255 (no exp needed)
  std::vector<int> radius;                           // N, 0 = not drawn
  std::vector<uint32_t> tileOffsets;                 // tiles+1
  std::vector<uint32_t> tileList;                    // gaussian indices, by tile then depth
};

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
