#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "lib/image.h"
#include "train/raster.h"

using namespace sr::train;

namespace {

Camera smallCamera(int w = 24, int h = 16) {
  Camera c{};
  // Looking down +z from the origin, slightly turned about y.
  const float a = 0.1f;
  const float R[9] = {std::cos(a), 0, std::sin(a), 0, 1, 0, -std::sin(a), 0, std::cos(a)};
  for (int k = 0; k < 9; k++) c.R[k] = R[k];
  c.t[0] = 0.05f, c.t[1] = -0.02f, c.t[2] = 0.f;
  c.fx = c.fy = 30.f, c.cx = w / 2.f, c.cy = h / 2.f, c.width = w, c.height = h;
  return c;
}

Gaussians threeGaussians() {
  Gaussians g;
  g.resize(3);
  // Large, central gaussians: every pixel of the image is inside each one's 1/255 contour and tile
  // rectangle, so the finite differences see no discontinuity (a pixel crossing the 1/255 cut-off would).
  const float means[9] = {0.05f, 0.0f, 3.0f, 0.1f, 0.05f, 3.4f, -0.05f, -0.05f, 2.8f};
  const float scales[9] = {0.9f, 0.7f, 0.5f, 0.8f, 1.0f, 0.6f, 0.6f, 0.8f, 0.9f};
  const float quats[12] = {0.9f, 0.1f, 0.2f, 0.05f, 0.8f, -0.3f, 0.1f, 0.4f, 1.0f, 0.05f, -0.2f, 0.1f};
  const float opac[3] = {0.2f, -0.3f, 0.5f};
  const float colors[9] = {0.5f, -0.3f, 0.2f, -0.4f, 0.6f, 0.1f, 0.3f, 0.3f, -0.5f};
  for (int i = 0; i < 9; i++) g.mean[i] = means[i], g.logScale[i] = std::log(scales[i]), g.color[i] = colors[i];
  for (int i = 0; i < 12; i++) g.quat[i] = quats[i];
  for (int i = 0; i < 3; i++) g.opacity[i] = opac[i];
  return g;
}

double weightedSum(const Gaussians& g, const Camera& cam, const std::vector<float>& w, const float bg[3]) {
  Render r;
  render(g, cam, bg, r);
  double s = 0;
  for (size_t i = 0; i < r.rgb.size(); i++) s += double(w[i]) * r.rgb[i];
  return s;
}

// n random gaussians in front of smallCamera's view: centres in a 2.4 × 1.8 × 2 box at 3 m, per-axis scales
// uniform in [scaleMin, scaleMin + 2·scaleHalfSpan], random rotations and colours, opacity logits
// opacityCentre ± opacityHalfSpan.
Gaussians randomScene(size_t n, uint32_t seed, float scaleMin, float scaleHalfSpan, float opacityCentre, float opacityHalfSpan) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  Gaussians g;
  g.resize(n);
  for (size_t i = 0; i < n; i++) {
    g.mean[3 * i] = uni(rng) * 1.2f, g.mean[3 * i + 1] = uni(rng) * 0.9f, g.mean[3 * i + 2] = 3.f + uni(rng);
    for (int k = 0; k < 3; k++) g.logScale[3 * i + k] = std::log(scaleMin + scaleHalfSpan * (uni(rng) + 1.f)), g.color[3 * i + k] = uni(rng);
    for (int k = 0; k < 4; k++) g.quat[4 * i + k] = uni(rng);
    g.opacity[i] = opacityCentre + opacityHalfSpan * uni(rng);
  }
  return g;
}

double maxAbsDifference(const std::vector<float>& a, const std::vector<float>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); i++) worst = std::max(worst, double(std::fabs(a[i] - b[i])));
  return worst;
}

}  // namespace

// Every parameter's gradient against a central finite difference of L = Σ w·pixels (w random).
// Float arithmetic: bound |analytic − numeric| ≤ 2e-2·max(|numeric|, 0.05·scale) with scale the largest gradient.
void checkGradients(int shDegree) {
  const Camera cam = smallCamera();
  Gaussians g = threeGaussians();
  g.shDegree = shDegree;
  if (shDegree > 0) {
    // Small view-dependent terms: every colour stays above the clamp at 0 (no kink for the differences).
    std::mt19937 shRng(7);
    std::uniform_real_distribution<float> small(-0.08f, 0.08f);
    for (auto& x : g.sh) x = small(shRng);
  }
  const float bg[3] = {0.1f, 0.2f, 0.3f};
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  std::vector<float> w(size_t(3) * cam.width * cam.height);
  for (auto& x : w) x = uni(rng);
  Render r;
  render(g, cam, bg, r);
  Gradients grads;
  grads.g.resize(g.size());
  backward(g, cam, bg, r, w, grads);
  struct Block {
    const char* name;
    std::vector<float> Gaussians::*field;
  };
  const Block blocks[] = {{"mean", &Gaussians::mean}, {"logScale", &Gaussians::logScale}, {"quat", &Gaussians::quat}, {"opacity", &Gaussians::opacity}, {"color", &Gaussians::color}, {"sh", &Gaussians::sh}};
  double worst = 0;
  size_t checked = 0;
  for (const auto& b : blocks) {
    auto& values = g.*(b.field);
    const auto& analytic = grads.g.*(b.field);
    double scale = 1e-6;
    for (float a : analytic) scale = std::max(scale, double(std::fabs(a)));
    for (size_t k = 0; k < values.size(); k++) {
      const float keep = values[k];
      const float eps = 1e-3f;
      values[k] = keep + eps;
      const double plus = weightedSum(g, cam, w, bg);
      values[k] = keep - eps;
      const double minus = weightedSum(g, cam, w, bg);
      values[k] = keep;
      const double numeric = (plus - minus) / (2 * eps);
      const double error = std::fabs(analytic[k] - numeric) / std::max(std::fabs(numeric), 0.05 * scale);
      worst = std::max(worst, error);
      EXPECT_LE(error, 2e-2) << b.name << "[" << k << "] analytic " << analytic[k] << " numeric " << numeric;
      if (std::fabs(numeric) > 1e-6) checked++;
    }
  }
  // At degree 0 the 45 SH coefficients per gaussian are unused (zero gradient, matched); at degree 3 all are live.
  std::printf("[raster] SH degree %d: worst relative gradient error %.3g (bound 2e-2) over %zu non-zero derivatives\n", shDegree, worst, checked);
}

// The kernels this CPU can run: the baseline build always, AVX2 + FMA where the CPU has them.
std::vector<RasterKernel> kernelsHere() {
  const RasterKernel before = rasterKernel();
  std::vector<RasterKernel> out{RasterKernel::Baseline};
  if (setRasterKernel(RasterKernel::Avx2)) out.push_back(RasterKernel::Avx2);
  setRasterKernel(before);
  return out;
}

// Runs `check` once with each kernel, then restores the default.
template <typename Check>
void withEachKernel(Check&& check) {
  const RasterKernel before = rasterKernel();
  for (RasterKernel kernel : kernelsHere()) {
    ASSERT_TRUE(setRasterKernel(kernel));
    std::printf("[raster] kernel %s\n", rasterKernelName(kernel));
    check();
  }
  setRasterKernel(before);
}

// The tiled render of g with each kernel against the per-pixel reference on the same background: `check` gets the
// tiled render and the largest difference from the reference (the tests bound it at 1e-5: the renderers must agree).
template <typename Check>
void againstReferenceWithEachKernel(const Gaussians& g, const Camera& cam, Check&& check) {
  const float bg[3] = {0.2f, 0.4f, 0.6f};
  std::vector<float> ref;
  renderReference(g, cam, bg, ref);
  withEachKernel([&] {
    Render fast;
    render(g, cam, bg, fast);
    check(fast, maxAbsDifference(ref, fast.rgb));
  });
}

TEST(Raster, GradientsMatchFiniteDifferences) {
  withEachKernel([] { checkGradients(0); });
}
TEST(Raster, GradientsMatchFiniteDifferencesAtShDegree3) {
  withEachKernel([] { checkGradients(3); });
}

// The SH colour against the closed form of degree 1 and the view dependence it must show: the same gaussian,
// seen from the opposite side, gets the opposite degree-1 term.
TEST(Raster, ShColourFollowsTheViewDirection) {
  Gaussians g;
  g.resize(1);
  g.mean = {0.f, 0.f, 0.f};
  g.color = {0.f, 0.f, 0.f};
  g.shDegree = 1;
  g.sh[3 * 1 + 0] = 0.5f;  // red, coefficient 1 (C1·z)
  const float front[3] = {0.f, 0.f, -2.f}, back[3] = {0.f, 0.f, 2.f};
  float a[3], b[3];
  shColor(g, 0, front, a);
  shColor(g, 0, back, b);
  const float expected = 0.4886025119029199f * 0.5f;  // direction +z from the front camera
  std::printf("[raster] SH degree 1: red from the front %.6f, from the back %.6f (expected 0.5 ± %.6f)\n", a[0], b[0], expected);
  EXPECT_NEAR(a[0], 0.5f + expected, 1e-6);
  EXPECT_NEAR(b[0], 0.5f - expected, 1e-6);
  EXPECT_NEAR(a[1], 0.5f, 1e-6);
}

// One isotropic gaussian seen head-on: the rendered pixel is α·colour + (1−α)·background with
// α = σ(o)·exp(−½ d²/σ²) and σ² = (f·s/z)² + 0.3 (the low-pass), drawn inside 3σ where α ≥ 1/255 — compared
// analytically.
TEST(Raster, SingleGaussianMatchesAnalyticRender) {
  Camera cam{};
  const float I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int k = 0; k < 9; k++) cam.R[k] = I[k];
  cam.fx = cam.fy = 50.f, cam.cx = 32.f, cam.cy = 32.f, cam.width = cam.height = 64;
  Gaussians g;
  g.resize(1);
  g.mean = {0.f, 0.f, 5.f};
  g.logScale = {std::log(0.3f), std::log(0.3f), std::log(0.3f)};
  g.quat = {1, 0, 0, 0};
  g.opacity = {0.4f};
  g.color = {1.f, 0.f, -1.f};
  const float bg[3] = {0.f, 0.f, 0.f};
  Render r;
  render(g, cam, bg, r);
  const double sigma2 = std::pow(50.0 * 0.3 / 5.0, 2) + 0.3;
  const double a0 = 1 / (1 + std::exp(-0.4));
  double worst = 0;
  for (int y = 0; y < 64; y++)
    for (int x = 0; x < 64; x++) {
      const double d2 = std::pow(x + 0.5 - 32, 2) + std::pow(y + 0.5 - 32, 2);
      double alpha = std::min(0.99, a0 * std::exp(-0.5 * d2 / sigma2));
      if (alpha < 1.0 / 255 || d2 > 9 * sigma2) alpha = 0;
      const double expected = alpha * (0.5 + kSHC0 * 1.0);
      worst = std::max(worst, std::fabs(expected - r.rgb[3 * (y * 64 + x)]));
    }
  std::printf("[raster] single gaussian: worst difference from the analytic render %.3g (bound 1e-5)\n", worst);
  EXPECT_LE(worst, 1e-5);
}

// The tiled renderer against the per-pixel reference on random scenes.
TEST(Raster, TiledMatchesReference) {
  const Camera cam = smallCamera(80, 56);
  // (random scenes: cut-offs and tiles matter here, the renderers must agree exactly)
  const Gaussians g = randomScene(300, 11, 0.03f, 0.05f, 0.f, 2.f);
  againstReferenceWithEachKernel(g, cam, [](const Render&, double worst) {
    std::printf("[raster] tiled vs reference on 300 random gaussians: max abs difference %.3g (bound 1e-5)\n", worst);
    EXPECT_LE(worst, 1e-5);
  });
}

// Crowded tiles (hundreds of gaussians each, many at exactly the same depth): each tile's list must still be in
// depth order with ties by index, as the reference draws them — a wrong order shows as a wrong colour.
TEST(Raster, CrowdedTilesDrawInDepthOrderWithTiesByIndex) {
  Camera cam = smallCamera(80, 56);
  const float identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int k = 0; k < 9; k++) cam.R[k] = identity[k];
  for (float& t : cam.t) t = 0.f;  // camera z is then the mean's z, exactly: ties stay ties
  Gaussians g = randomScene(4000, 31, 0.03f, 0.03f, -1.f, 1.f);
  std::mt19937 rng(37);
  std::uniform_int_distribution<int> level(0, 7);
  for (size_t i = 0; i < g.size(); i += 2) g.mean[3 * i + 2] = 2.5f + 0.25f * float(level(rng));  // half on 8 shared depths
  againstReferenceWithEachKernel(g, cam, [](const Render& fast, double worst) {
    uint32_t longest = 0;
    for (size_t tile = 0; tile + 1 < fast.proj.tileOffsets.size(); tile++)
      longest = std::max(longest, fast.proj.tileOffsets[tile + 1] - fast.proj.tileOffsets[tile]);
    std::printf("[raster] crowded tiles (longest list %u): max abs difference from the reference %.3g (bound 1e-5)\n", longest, worst);
    EXPECT_GE(longest, 256u);
    EXPECT_LE(worst, 1e-5);
  });
}

// Long, thin gaussians at every slant are binned only to the tiles their cut-off ellipse reaches, not to the square
// around it: the render must still match the per-pixel reference everywhere (a tile left out shows as a gap), and
// the tile lists must be shorter than the squares' would be.
TEST(Raster, ThinSlantedGaussiansReachEveryTileTheyCover) {
  const Camera cam = smallCamera(160, 112);
  Gaussians g = randomScene(200, 23, 0.01f, 0.f, 1.f, 1.f);
  // One axis 10–40 times the others: needles and blades.
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  for (size_t i = 0; i < g.size(); i++) g.logScale[3 * i] = std::log(0.2f + 0.2f * (uni(rng) + 1.f));
  againstReferenceWithEachKernel(g, cam, [&](const Render& fast, double worst) {
    // The squares 3σ of the larger axis would cover, counted from each drawn gaussian's radius.
    size_t squares = 0;
    const int tilesX = (cam.width + kTile - 1) / kTile, tilesY = (cam.height + kTile - 1) / kTile;
    for (size_t i = 0; i < g.size(); i++) {
      const int r = fast.proj.radius[i];
      if (!r) continue;
      const ScreenSplat& s = fast.proj.splats[i];
      const int x0 = std::max(0, int(std::floor((s.u - r) / kTile))), x1 = std::min(tilesX - 1, int(std::floor((s.u + r) / kTile)));
      const int y0 = std::max(0, int(std::floor((s.v - r) / kTile))), y1 = std::min(tilesY - 1, int(std::floor((s.v + r) / kTile)));
      squares += size_t(std::max(0, x1 - x0 + 1) * std::max(0, y1 - y0 + 1));
    }
    const size_t pairs = fast.proj.tileList.size();
    std::printf("[raster] thin slanted gaussians: max abs difference from the reference %.3g (bound 1e-5); %zu tile pairs against %zu for squares (%.2fx)\n",
                worst, pairs, squares, double(squares) / double(pairs));
    EXPECT_LE(worst, 1e-5);
    EXPECT_LT(pairs, squares);
  });
}

// Coarse-to-fine training renders the same view at half size: that render must match the full-size render
// shrunk by area averaging (what the trainer compares it with), pixel for pixel.
TEST(Raster, HalfSizeCameraMatchesTheShrunkFullRender) {
  const Camera full = smallCamera(160, 112);
  const Camera half = scaledCamera(full, 0.5f);
  ASSERT_EQ(half.width, 80);
  ASSERT_EQ(half.height, 56);
  const Gaussians g = randomScene(200, 5, 0.08f, 0.06f, 0.f, 1.f);
  const float bg[3] = {0.2f, 0.4f, 0.6f};
  Render big, small;
  render(g, full, bg, big);
  render(g, half, bg, small);
  sr::ImageRGB image(full.width, full.height);
  image.data = big.rgb;
  const sr::ImageRGB shrunk = sr::resizeImage(image, half.width, half.height);
  double sum = 0;
  for (size_t i = 0; i < shrunk.data.size(); i++) sum += std::pow(double(shrunk.data[i]) - small.rgb[i], 2);
  const double psnr = 10 * std::log10(1.0 / (sum / double(shrunk.data.size())));
  std::printf("[raster] half-size camera vs the full render shrunk 2x: PSNR %.2f dB (bound 35 dB)\n", psnr);
  EXPECT_GE(psnr, 35.0);
}
