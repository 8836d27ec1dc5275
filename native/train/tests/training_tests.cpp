#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <unistd.h>

#include "train/ssim.h"
#include "train/training.h"

using namespace sr::train;

static Gaussians randomGaussians(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  Gaussians g;
  g.resize(n);
  for (auto* v : {&g.mean, &g.logScale, &g.quat, &g.opacity, &g.color, &g.sh})
    for (auto& x : *v) x = uni(rng);
  g.shDegree = int(seed % 4);
  return g;
}

TEST(Training, CheckpointRoundTrips) {
  Checkpoint c;
  c.iteration = 123, c.seconds = 45.5, c.background[1] = 0.25f;
  c.params = randomGaussians(17, 1);
  c.adam.m = randomGaussians(17, 2), c.adam.v = randomGaussians(17, 3), c.adam.step = 9;
  c.rng = "12345 678";
  const auto path = std::filesystem::temp_directory_path() / ("srtrain-ck-" + std::to_string(::getpid()));
  writeCheckpoint(c, path.string());
  const Checkpoint back = readCheckpoint(path.string());
  EXPECT_EQ(back.iteration, 123);
  EXPECT_EQ(back.adam.step, 9);
  EXPECT_EQ(back.params.mean, c.params.mean);
  EXPECT_EQ(back.adam.v.color, c.adam.v.color);
  EXPECT_EQ(back.params.sh, c.params.sh);
  EXPECT_EQ(back.params.shDegree, c.params.shDegree);
  EXPECT_EQ(back.adam.m.sh, c.adam.m.sh);
  EXPECT_EQ(back.rng, c.rng);
  EXPECT_FLOAT_EQ(back.background[1], 0.25f);
  std::filesystem::remove(path);
}

// A checkpoint of the previous format (no SH) is refused with a message, not misread.
TEST(Training, OldCheckpointIsRefused) {
  const auto path = std::filesystem::temp_directory_path() / ("srtrain-old-" + std::to_string(::getpid()));
  {
    std::ofstream out(path, std::ios::binary);
    out.write("SRCK0001", 8);
    const int32_t iteration = 5;
    out.write(reinterpret_cast<const char*>(&iteration), 4);
  }
  try {
    readCheckpoint(path.string());
    ADD_FAILURE() << "an old checkpoint was read";
  } catch (const std::runtime_error& e) {
    std::printf("[training] old checkpoint: %s\n", e.what());
    EXPECT_NE(std::string(e.what()).find("another version"), std::string::npos);
  }
  std::filesystem::remove(path);
}

// The .ply carries the SH of the degree in use as 3DGS lays it out: f_rest_0..14 red coefficients 1..15, then
// green, then blue.
TEST(Training, PlyWritesShRestChannelMajor) {
  Gaussians g = randomGaussians(2, 3);
  g.shDegree = 3;
  const auto path = std::filesystem::temp_directory_path() / ("srtrain-sh-" + std::to_string(::getpid()) + ".ply");
  writeSplatPly(g, path.string());
  std::ifstream in(path, std::ios::binary);
  std::string line;
  std::vector<std::string> names;
  while (std::getline(in, line) && line != "end_header")
    if (line.rfind("property float ", 0) == 0) names.push_back(line.substr(15));
  ASSERT_EQ(names.size(), 17u + 45u);
  EXPECT_EQ(names[9], "f_rest_0");
  EXPECT_EQ(names[53], "f_rest_44");
  EXPECT_EQ(names[54], "opacity");
  std::vector<float> rows(2 * names.size());
  in.read(reinterpret_cast<char*>(rows.data()), std::streamsize(rows.size() * sizeof(float)));
  ASSERT_TRUE(in);
  const float* second = &rows[names.size()];
  for (int ch = 0; ch < 3; ch++)
    for (int k = 0; k < 15; k++) EXPECT_EQ(second[9 + ch * 15 + k], g.sh[45 + 3 * k + ch]) << "channel " << ch << " coefficient " << k;
  EXPECT_EQ(second[54], g.opacity[1]);
  // Degree 0: no f_rest at all (the 17 properties as before).
  g.shDegree = 0;
  writeSplatPly(g, path.string());
  std::ifstream again(path, std::ios::binary);
  size_t count = 0;
  while (std::getline(again, line) && line != "end_header") count += line.rfind("property float ", 0) == 0;
  EXPECT_EQ(count, 17u);
  std::filesystem::remove(path);
}

// Clone, split and prune keep every parameter block and Adam's state the same length, and move each
// gaussian's optimiser state with it.
TEST(Training, DensificationKeepsParametersAndOptimiserTogether) {
  Gaussians g = randomGaussians(4, 5);
  for (int i = 0; i < 4; i++) g.opacity[i] = 2.f;
  g.opacity[3] = -8.f;                                   // transparent: pruned
  for (int k = 0; k < 3; k++) g.logScale[k] = std::log(0.001f);  // gaussian 0 small: cloned
  for (int k = 0; k < 3; k++) g.logScale[3 + k] = std::log(0.2f);  // gaussian 1 large: split
  for (int k = 0; k < 3; k++) g.logScale[6 + k] = std::log(0.05f);
  Adam adam;
  adam.resize(4);
  for (int i = 0; i < 4; i++) adam.m.opacity[i] = float(i + 1);
  DensifyStats stats;
  stats.resize(4);
  stats.gradSum = {1.f, 1.f, 0.f, 0.f};
  stats.seen = {1, 1, 1, 1};
  DensifyOptions o;
  o.sceneExtent = 1.f, o.gradThreshold = 0.5f;
  std::mt19937 rng(1);
  const auto r = densifyAndPrune(g, adam, stats, o, rng);
  EXPECT_EQ(r.cloned, 1u);
  EXPECT_EQ(r.split, 1u);
  EXPECT_EQ(r.pruned, 1u);
  // 4 + 1 clone + 2 split − the split original − the transparent one = 5.
  ASSERT_EQ(g.size(), 5u);
  EXPECT_EQ(g.mean.size(), 15u);
  EXPECT_EQ(g.quat.size(), 20u);
  EXPECT_EQ(adam.m.size(), 5u);
  EXPECT_EQ(adam.v.mean.size(), 15u);
  // Survivors keep their state (0 and 2 in order), new ones start at zero.
  EXPECT_FLOAT_EQ(adam.m.opacity[0], 1.f);
  EXPECT_FLOAT_EQ(adam.m.opacity[1], 3.f);
  for (size_t i = 2; i < 5; i++) EXPECT_FLOAT_EQ(adam.m.opacity[i], 0.f);
  // The split halves are 1.6× smaller than the original.
  EXPECT_NEAR(std::exp(g.logScale[3 * 3]), 0.2f / 1.6f, 1e-5);
}

TEST(Training, AdamMovesAgainstTheGradient) {
  Gaussians p = randomGaussians(3, 7), grad;
  grad.resize(3);
  for (auto* v : {&grad.mean, &grad.logScale, &grad.quat, &grad.opacity, &grad.color, &grad.sh})
    for (auto& x : *v) x = 1.f;
  const Gaussians before = p;
  Adam adam;
  adam.resize(3);
  adamStep(p, grad, adam, {0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.01f});
  // First Adam step with bias correction moves each parameter by −lr·sign(grad).
  for (size_t i = 0; i < p.mean.size(); i++) EXPECT_NEAR(p.mean[i], before.mean[i] - 0.1f, 1e-5);
  ASSERT_EQ(p.shDegree, 3);
  for (size_t i = 0; i < p.sh.size(); i++) EXPECT_NEAR(p.sh[i], before.sh[i] - 0.01f, 1e-5);
}

// A short training run at SH degree 3 (render, L1 + D-SSIM, backward, Adam, densification with a seeded generator) done twice
// with the same seed and thread count gives bit-identical parameters.
static Gaussians trainBriefly(uint32_t seed) {
  Gaussians g = randomGaussians(400, 11);
  for (auto& s : g.logScale) s = std::log(0.05f) + 0.3f * s;
  Adam adam;
  adam.resize(g.size());
  Camera cam{};
  const float I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int k = 0; k < 9; k++) cam.R[k] = I[k];
  cam.t[0] = cam.t[1] = 0.f, cam.t[2] = 3.f;
  cam.fx = cam.fy = 60.f, cam.cx = 40.f, cam.cy = 30.f, cam.width = 80, cam.height = 60;
  const float bg[3] = {0.2f, 0.3f, 0.4f};
  std::vector<float> target(size_t(3) * 80 * 60);
  for (size_t i = 0; i < target.size(); i++) target[i] = float((i * 37) % 101) / 100.f;
  std::mt19937 rng(seed);
  DensifyStats stats;
  stats.resize(g.size());
  DensifyOptions options;
  options.gradThreshold = 0.f;  // densify every gaussian that was seen, to exercise clone and split
  for (int it = 1; it <= 12; it++) {
    Render r;
    render(g, cam, bg, r);
    std::vector<float> dL;
    l1SsimLoss(r.rgb, target, 80, 60, 0.2f, dL);
    Gradients grads;
    grads.g.resize(g.size());
    for (auto* v : {&grads.g.mean, &grads.g.logScale, &grads.g.quat, &grads.g.opacity, &grads.g.color, &grads.g.sh}) std::fill(v->begin(), v->end(), 0.f);
    grads.meanScreen.assign(g.size(), 0.f);
    backward(g, cam, bg, r, dL, grads);
    adamStep(g, grads.g, adam, {1e-3f, 5e-3f, 1e-3f, 2.5e-2f, 2.5e-3f, 1.25e-4f});
    for (size_t i = 0; i < g.size(); i++)
      if (r.proj.radius[i]) stats.gradSum[i] += grads.meanScreen[i], stats.seen[i]++;
    if (it % 6 == 0) {
      densifyAndPrune(g, adam, stats, options, rng);
      stats.resize(g.size());
    }
  }
  return g;
}

TEST(Training, SameSeedAndThreadsGiveIdenticalParameters) {
  const Gaussians a = trainBriefly(5), b = trainBriefly(5);
  std::printf("[training] determinism: %zu gaussians after 12 iterations with densification\n", a.size());
  ASSERT_EQ(a.size(), b.size());
  EXPECT_GT(a.size(), size_t(400));  // densification did run
  for (auto [x, y] : {std::pair{&a.mean, &b.mean}, {&a.logScale, &b.logScale}, {&a.quat, &b.quat}, {&a.opacity, &b.opacity}, {&a.color, &b.color}, {&a.sh, &b.sh}})
    EXPECT_EQ(*x, *y);
  EXPECT_EQ(a.shDegree, 3);  // the scene trains view-dependent colour (SH degree 3)
}
