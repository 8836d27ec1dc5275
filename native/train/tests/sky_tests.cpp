#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "train/sky.h"
#include "train/training.h"

using namespace sr::train;

namespace {

// A camera at `centre` looking along +x of the world (its z), y down.
Camera sideways(const float centre[3], int width, int height) {
  Camera c{};
  // Rows: camera x = world −z... a right-handed frame with the optical axis on world +x.
  const float R[9] = {0, 0, -1, 0, 1, 0, 1, 0, 0};
  for (int k = 0; k < 9; k++) c.R[k] = R[k];
  for (int r = 0; r < 3; r++) c.t[r] = -(R[r * 3] * centre[0] + R[r * 3 + 1] * centre[1] + R[r * 3 + 2] * centre[2]);
  c.fx = c.fy = 0.8f * float(width), c.cx = 0.5f * float(width), c.cy = 0.5f * float(height);
  c.width = width, c.height = height;
  c.near = 0.01f;
  return c;
}

}  // namespace

TEST(Sky, ShellLiesBeyondTheSceneAndItsPoints) {
  const float centroid[3] = {1, 2, 3};
  const std::vector<float> points = {1, 2, 3, 2, 2, 3, 1, 50, 3};  // one point 48 units out
  const SkyShell near = skyShellAround(centroid, 2.f, {1, 2, 3, 2, 2, 3});
  EXPECT_FLOAT_EQ(near.radius, 20.f);  // 10 × the extent
  // The 99th percentile of three points is the farthest: the shell goes twice as far out.
  const SkyShell far = skyShellAround(centroid, 2.f, points);
  EXPECT_NEAR(far.radius, 96.f, 1e-3);
  const float inside[3] = {1, 2, 3 + 5}, outside[3] = {1, 2 + 60, 3};
  EXPECT_FALSE(far.contains(inside));
  EXPECT_TRUE(far.contains(outside));
}

// Sky splats made for one view cover that view and reproduce its colour: the picture of a uniform sky rendered
// from them alone (on a black background) is the sky's colour nearly everywhere.
TEST(Sky, SplatsCoverTheViewsThatSeeThemInTheirColour) {
  const int width = 96, height = 64;
  const float centre[3] = {0, 0, 0};
  const Camera camera = sideways(centre, width, height);
  std::vector<float> pixels(size_t(width) * height * 3);
  for (size_t i = 0; i < pixels.size(); i += 3) pixels[i] = 0.4f, pixels[i + 1] = 0.6f, pixels[i + 2] = 0.9f;
  SkyShell shell;
  shell.radius = 100.f;
  const Gaussians sky = skySplats(shell, {{&camera, &pixels}}, 300);
  std::printf("sky splats for one 96×64 view: %zu (target 300)\n", sky.size());
  EXPECT_GT(sky.size(), 240u);
  EXPECT_LT(sky.size(), 375u);
  for (size_t i = 0; i < sky.size(); i++) {
    const float* m = &sky.mean[3 * i];
    EXPECT_NEAR(std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]), 100.f, 1e-2f);
    EXPECT_GT(m[0], 0.f) << "a splat behind the camera";
  }
  const float black[3] = {0, 0, 0};
  Render r;
  render(sky, camera, black, r);
  double error = 0;
  size_t covered = 0;
  for (size_t p = 0; p < size_t(width) * height; p++) {
    if (r.transmittance[p] < 0.05f) covered++;
    for (int k = 0; k < 3; k++) error += std::fabs(r.rgb[3 * p + k] - pixels[3 * p + k]);
  }
  const double share = double(covered) / double(width * height), mae = error / double(pixels.size());
  std::printf("sky render: %.1f %% of the view covered (bound 95 %%), mean absolute error %.4f (bound 0.03)\n", 100 * share, mae);
  EXPECT_GT(share, 0.95);
  EXPECT_LT(mae, 0.03);
}

TEST(Sky, NoViewNoSplats) {
  SkyShell shell;
  shell.radius = 10.f;
  EXPECT_EQ(skySplats(shell, {}, 100).size(), 0u);
}

// Densification judges a gaussian's size against its distance from the scene: a far gaussian as large as a sky
// splat is kept, the same gaussian near the centre is pruned as huge.
TEST(Sky, FarGaussiansAreNotPrunedForTheirSize) {
  Gaussians g;
  g.resize(2);
  std::fill(g.sh.begin(), g.sh.end(), 0.f), std::fill(g.color.begin(), g.color.end(), 0.f);
  for (size_t i = 0; i < 2; i++) {
    for (int k = 0; k < 3; k++) g.logScale[3 * i + k] = std::log(2.f);
    g.quat[4 * i] = 1, g.quat[4 * i + 1] = g.quat[4 * i + 2] = g.quat[4 * i + 3] = 0;
    g.opacity[i] = 2.f;
  }
  g.mean = {0.5f, 0, 0, 100.f, 0, 0};
  Adam adam;
  adam.resize(2);
  DensifyStats stats;
  stats.resize(2);
  DensifyOptions options;
  options.sceneExtent = 1.f;
  std::mt19937 rng(1);
  const DensifyResult result = densifyAndPrune(g, adam, stats, options, rng);
  EXPECT_EQ(result.pruned, 1u);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_FLOAT_EQ(g.mean[0], 100.f);
}

// The sky's splats keep their number: a far gaussian with a high gradient is neither cloned nor split, the same
// gaussian within reach is.
TEST(Sky, FarGaussiansAreNotDensified) {
  for (const float x : {0.5f, 100.f}) {
    Gaussians g;
    g.resize(1);
    std::fill(g.sh.begin(), g.sh.end(), 0.f), std::fill(g.color.begin(), g.color.end(), 0.f);
    for (int k = 0; k < 3; k++) g.logScale[k] = std::log(0.001f);
    g.quat[0] = 1, g.quat[1] = g.quat[2] = g.quat[3] = 0;
    g.opacity[0] = 2.f;
    g.mean = {x, 0, 0};
    Adam adam;
    adam.resize(1);
    DensifyStats stats;
    stats.resize(1);
    stats.gradSum[0] = 1.f, stats.seen[0] = 1;
    DensifyOptions options;
    options.densifyWithin = 50.f;
    std::mt19937 rng(1);
    const DensifyResult result = densifyAndPrune(g, adam, stats, options, rng);
    EXPECT_EQ(result.cloned, x < 50.f ? 1u : 0u) << "at x = " << x;
    EXPECT_EQ(g.size(), x < 50.f ? 2u : 1u);
  }
}

// A camera's near plane is half the depth of the nearest of the points it measured (2nd percentile: a stray
// point or two nearer does not count), whatever the distance to the scene's centre.
TEST(NearPlane, FromTheDepthsACameraMeasured) {
  std::vector<float> depths;
  for (int i = 0; i < 100; i++) depths.push_back(2.f + 0.1f * float(i));
  depths.push_back(0.05f);  // a stray point right in front of the camera
  depths.push_back(-3.f);   // behind it
  const float near = nearPlaneFromDepths(depths, 10.f);
  std::printf("near plane %.3f for points from 2.0 to 11.9 with one stray at 0.05\n", near);
  EXPECT_NEAR(near, 0.5f * 2.1f, 0.051f);
  EXPECT_FLOAT_EQ(nearPlaneFromDepths({1.f, 2.f}, 0.7f), 0.7f);
}
