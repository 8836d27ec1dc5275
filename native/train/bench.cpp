// sr-train-bench: seconds per forward+backward iteration of the tiled rasterizer on random scenes of
// 50k/100k/200k small gaussians at 0.1/0.2/0.4 MP (with the CPU's best kernel, and with the baseline-target
// kernel beside it), and the tiled forward pass against the plain per-pixel reference on a scene small enough for
// the reference to finish. Prints figures only (bench/train.bench.ts sets them beside an earlier build's).
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

#include "train/raster.h"

using namespace sr::train;

namespace {

Gaussians scene(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  Gaussians g;
  g.resize(n);
  for (size_t i = 0; i < n; i++) {
    g.mean[3 * i] = 1.5f * uni(rng), g.mean[3 * i + 1] = 1.1f * uni(rng), g.mean[3 * i + 2] = 4.f + uni(rng);
    // Sizes like a dense scan's: a few millimetres to centimetres at 4 m.
    for (int k = 0; k < 3; k++) g.logScale[3 * i + k] = std::log(0.004f + 0.01f * (uni(rng) + 1.f)), g.color[3 * i + k] = uni(rng);
    for (int k = 0; k < 4; k++) g.quat[4 * i + k] = uni(rng);
    g.opacity[i] = 1.f + uni(rng);
  }
  return g;
}

Camera camera(int width, int height) {
  Camera c{};
  const float I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int k = 0; k < 9; k++) c.R[k] = I[k];
  c.fx = c.fy = 0.9f * width, c.cx = width / 2.f, c.cy = height / 2.f, c.width = width, c.height = height;
  return c;
}

double seconds(const std::chrono::steady_clock::time_point& since) { return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count(); }

}  // namespace

int main() {
  const float bg[3] = {0.5f, 0.5f, 0.5f};
  const RasterKernel best = rasterKernel();
  std::printf("threads: %d, kernel: %s\n", omp_get_max_threads(), rasterKernelName(best));
  std::printf("%-10s %-10s %14s %14s %22s\n", "pixels", "gaussians", "fwd+bwd s/it", "fwd s", "baseline kernel s/it");
  const int sizes[3][2] = {{365, 274}, {516, 387}, {730, 548}};  // 0.1, 0.2, 0.4 MP (4:3)
  for (const auto& size : sizes)
    for (size_t n : {50000, 100000, 200000}) {
      const Gaussians g = scene(n, 7);
      const Camera cam = camera(size[0], size[1]);
      std::vector<float> dL(size_t(3) * size[0] * size[1], 1e-6f);
      Render r;
      Gradients grads;
      const int reps = 3;
      // Seconds per forward+backward (and per forward) with the kernel in use.
      const auto timed = [&](double& fwd) {
        render(g, cam, bg, r);  // warm-up
        double total = 0;
        fwd = 0;
        for (int k = 0; k < reps; k++) {
          auto t0 = std::chrono::steady_clock::now();
          render(g, cam, bg, r);
          fwd += seconds(t0);
          grads.g.resize(0);
          grads.g.resize(n);
          backward(g, cam, bg, r, dL, grads);
          total += seconds(t0);
        }
        fwd /= reps;
        return total / reps;
      };
      double fwd, baselineFwd;
      const double total = timed(fwd);
      setRasterKernel(RasterKernel::Baseline);
      const double baseline = timed(baselineFwd);
      setRasterKernel(best);
      std::printf("%-10.2f %-10zu %14.3f %14.3f %22.3f\n", size[0] * size[1] / 1e6, n, total, fwd, baseline);
    }
  // The reference visits every gaussian at every pixel: only a small scene finishes in reasonable time.
  const Gaussians g = scene(5000, 9);
  const Camera cam = camera(160, 120);
  Render r;
  auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < 5; k++) render(g, cam, bg, r);
  const double tiled = seconds(t0) / 5;
  std::vector<float> ref;
  t0 = std::chrono::steady_clock::now();
  renderReference(g, cam, bg, ref);
  const double reference = seconds(t0);
  std::printf("forward, 5,000 gaussians at 160×120: tiled %.4f s, per-pixel reference %.4f s — %.1f× faster\n", tiled, reference, reference / tiled);
  return 0;
}
