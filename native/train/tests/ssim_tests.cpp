#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "train/ssim.h"

using namespace sr::train;

namespace {

std::vector<float> randomImage(int w, int h, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uni(0.1f, 0.9f);
  std::vector<float> img(size_t(3) * w * h);
  for (auto& v : img) v = uni(rng);
  return img;
}

}  // namespace

TEST(Ssim, IdenticalImagesScoreOneAndNoiseLess) {
  const auto a = randomImage(32, 24, 1), b = randomImage(32, 24, 2);
  const double same = meanSsim(a, a, 32, 24, nullptr), other = meanSsim(a, b, 32, 24, nullptr);
  std::printf("[ssim] identical %.6f, independent noise %.4f\n", same, other);
  EXPECT_NEAR(same, 1.0, 1e-5);
  EXPECT_LT(other, 0.2);
}

// The loss (1 − λ)·L1 + λ·(1 − SSIM), λ = 0.2, against central finite differences on every pixel of a small
// image pair (the target is at least 0.05 away from each rendered value, so L1 has no kink within ±eps).
// Bound: |analytic − numeric| ≤ 2e-2·max(|numeric|, 0.05·largest).
TEST(Ssim, L1SsimGradientMatchesFiniteDifferences) {
  const int w = 19, h = 13;
  auto x = randomImage(w, h, 3);
  std::vector<float> y(x.size());
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> off(0.05f, 0.3f);
  for (size_t i = 0; i < x.size(); i++) y[i] = x[i] + (i % 2 ? off(rng) : -off(rng));
  std::vector<float> grad, scratch;
  l1SsimLoss(x, y, w, h, 0.2f, grad);
  double largest = 1e-12;
  for (float g : grad) largest = std::max(largest, double(std::fabs(g)));
  double worst = 0;
  for (size_t i = 0; i < x.size(); i++) {
    const float keep = x[i], eps = 1e-3f;
    x[i] = keep + eps;
    const double plus = l1SsimLoss(x, y, w, h, 0.2f, scratch);
    x[i] = keep - eps;
    const double minus = l1SsimLoss(x, y, w, h, 0.2f, scratch);
    x[i] = keep;
    const double numeric = (plus - minus) / (2 * eps);
    const double error = std::fabs(grad[i] - numeric) / std::max(std::fabs(numeric), 0.05 * largest);
    worst = std::max(worst, error);
    EXPECT_LE(error, 2e-2) << "value " << i << " analytic " << grad[i] << " numeric " << numeric;
  }
  std::printf("[ssim] L1 + D-SSIM gradient: worst relative error %.3g over %zu values (bound 2e-2)\n", worst, x.size());
}
