#include "train/ssim.h"

#include <algorithm>
#include <cmath>

#include <omp.h>

namespace sr::train {
namespace {

constexpr int kRadius = 5;  // 11×11 window, σ = 1.5 (as the SSIM paper and 3DGS)

struct Window {
  float w[2 * kRadius + 1];
  Window() {
    float sum = 0;
    for (int k = -kRadius; k <= kRadius; k++) sum += w[k + kRadius] = std::exp(-float(k * k) / (2.f * 1.5f * 1.5f));
    for (float& x : w) x /= sum;
  }
};

// Separable gaussian blur with zero padding (so it is its own adjoint, which the backward pass uses). Both passes
// add one shifted, weighted row at a time (contiguous, so the compiler puts the pixels in SIMD lanes).
void blur(const std::vector<float>& in, int width, int height, std::vector<float>& tmp, std::vector<float>& out) {
  static const Window window;
  const float* w = window.w + kRadius;  // w[-kRadius..kRadius]
  tmp.assign(in.size(), 0.f);
  out.assign(in.size(), 0.f);
  for (int y = 0; y < height; y++) {
    const float* row = &in[size_t(y) * width];
    float* dst = &tmp[size_t(y) * width];
    for (int k = -kRadius; k <= kRadius; k++) {
      const float wk = w[k];
      const int lo = std::max(0, -k), hi = std::min(width, width - k);
      for (int x = lo; x < hi; x++) dst[x] += wk * row[x + k];
    }
  }
  // Vertical pass row by row (contiguous): out[y] += w[k]·tmp[y + k].
  for (int y = 0; y < height; y++) {
    float* dst = &out[size_t(y) * width];
    for (int k = -kRadius; k <= kRadius; k++) {
      if (y + k < 0 || y + k >= height) continue;
      const float* src = &tmp[size_t(y + k) * width];
      const float wk = w[k];
      for (int x = 0; x < width; x++) dst[x] += wk * src[x];
    }
  }
}

}  // namespace

double meanSsim(const std::vector<float>& a, const std::vector<float>& b, int width, int height, std::vector<float>* grad) {
  const float C1 = 0.01f * 0.01f, C2 = 0.03f * 0.03f;
  const size_t pixels = size_t(width) * height;
  if (grad) grad->assign(3 * pixels, 0.f);
  double sums[3] = {0, 0, 0};
  const float perPixel = 1.f / float(3 * pixels);  // d(mean SSIM)/d(SSIM at one pixel and channel)
  // The three channels are independent: one per thread (each sums its own channel, so the total does not depend on
  // the thread count).
#pragma omp parallel for schedule(static, 1)
  for (int ch = 0; ch < 3; ch++) {
    std::vector<float> x(pixels), y(pixels), xx(pixels), yy(pixels), xy(pixels), tmp;
    std::vector<float> mx, my, exx, eyy, exy;
    std::vector<float> gm(pixels), gxx(pixels), gxy(pixels), bm, bxx, bxy;
    for (size_t p = 0; p < pixels; p++) {
      x[p] = a[3 * p + ch], y[p] = b[3 * p + ch];
      xx[p] = x[p] * x[p], yy[p] = y[p] * y[p], xy[p] = x[p] * y[p];
    }
    blur(x, width, height, tmp, mx), blur(y, width, height, tmp, my);
    blur(xx, width, height, tmp, exx), blur(yy, width, height, tmp, eyy), blur(xy, width, height, tmp, exy);
    double sum = 0;
    for (size_t p = 0; p < pixels; p++) {
      const float sxx = exx[p] - mx[p] * mx[p], syy = eyy[p] - my[p] * my[p], sxy = exy[p] - mx[p] * my[p];
      const float A1 = 2.f * mx[p] * my[p] + C1, A2 = 2.f * sxy + C2;
      const float B1 = mx[p] * mx[p] + my[p] * my[p] + C1, B2 = sxx + syy + C2;
      const float s = (A1 * A2) / (B1 * B2);
      sum += s;
      if (!grad) continue;
      // S(mx, E[x²], E[xy]) with my, E[y²] fixed: the partial derivatives, times d(mean)/dS.
      const float dMx = 2.f * my[p] * A2 / (B1 * B2) - s * 2.f * mx[p] / B1;
      const float dSxx = -s / B2, dSxy = 2.f * A1 / (B1 * B2);
      gm[p] = perPixel * (dMx - 2.f * mx[p] * dSxx - my[p] * dSxy);
      gxx[p] = perPixel * dSxx;
      gxy[p] = perPixel * dSxy;
    }
    sums[ch] = sum;
    if (!grad) continue;
    // Each windowed mean is a blur of its image, so its adjoint is the same blur.
    blur(gm, width, height, tmp, bm), blur(gxx, width, height, tmp, bxx), blur(gxy, width, height, tmp, bxy);
    for (size_t p = 0; p < pixels; p++) (*grad)[3 * p + ch] = bm[p] + 2.f * x[p] * bxx[p] + y[p] * bxy[p];
  }
  return (sums[0] + sums[1] + sums[2]) / double(3 * pixels);
}

float l1SsimLoss(const std::vector<float>& rendered, const std::vector<float>& target, int width, int height, float lambda, std::vector<float>& grad) {
  const float l1 = l1Loss(rendered, target, grad);
  if (lambda <= 0.f) return l1;
  std::vector<float> ssimGrad;
  const double ssim = meanSsim(rendered, target, width, height, &ssimGrad);
  for (size_t i = 0; i < grad.size(); i++) grad[i] = (1.f - lambda) * grad[i] - lambda * ssimGrad[i];
  return (1.f - lambda) * l1 + lambda * float(1.0 - ssim);
}

}  // namespace sr::train
