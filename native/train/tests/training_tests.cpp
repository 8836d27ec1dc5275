#include <gtest/gtest.h>

#include <algorithm>
#include <array>
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
  c.iteration = 123, c.seconds = 45.5, c.background[1] = 0.25f, c.opacityResets = 2;
  c.params = randomGaussians(17, 1);
  c.adam.m = randomGaussians(17, 2), c.adam.v = randomGaussians(17, 3), c.adam.step = 9;
  c.rng = "12345 678";
  const auto path = std::filesystem::temp_directory_path() / ("srtrain-ck-" + std::to_string(::getpid()));
  writeCheckpoint(c, path.string());
  const Checkpoint back = readCheckpoint(path.string());
  EXPECT_EQ(back.iteration, 123);
  EXPECT_EQ(back.opacityResets, 2);  // a resumed run knows which resets it has done
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

// A checkpoint of an earlier format (SRCK0001: no SH; SRCK0002: no opacity-reset count) is refused with a
// message, not misread.
TEST(Training, OldCheckpointIsRefused) {
  const auto path = std::filesystem::temp_directory_path() / ("srtrain-old-" + std::to_string(::getpid()));
  for (const char* magic : {"SRCK0001", "SRCK0002"}) {
    {
      std::ofstream out(path, std::ios::binary);
      out.write(magic, 8);
      const int32_t iteration = 5;
      out.write(reinterpret_cast<const char*>(&iteration), 4);
    }
    try {
      readCheckpoint(path.string());
      ADD_FAILURE() << "an old checkpoint was read: " << magic;
    } catch (const std::runtime_error& e) {
      std::printf("[training] old checkpoint: %s\n", e.what());
      EXPECT_NE(std::string(e.what()).find("another version"), std::string::npos);
    }
  }
  std::filesystem::remove(path);
}

static float sigmoid(float x) { return 1.f / (1.f + std::exp(-x)); }

// An opacity reset lowers every opacity above 0.01 to 0.01, leaves lower ones as they were, zeroes the
// opacity logits' Adam moments and touches nothing else.
TEST(Training, OpacityResetLowersOpacitiesAndForgetsTheirMoments) {
  Gaussians g = randomGaussians(6, 4);
  g.opacity = {3.f, 0.f, -4.f, -6.f, -4.59f, 8.f};  // 0.95, 0.5, 0.018, 0.0025, 0.0101, 0.9997
  const Gaussians before = g;
  Adam adam;
  adam.m = randomGaussians(6, 8), adam.v = randomGaussians(6, 9), adam.step = 40;
  const Adam adamBefore = adam;
  resetOpacity(g, adam);
  for (size_t i = 0; i < g.size(); i++) EXPECT_LE(sigmoid(g.opacity[i]), 0.01f + 1e-6f) << "gaussian " << i;
  EXPECT_NEAR(sigmoid(g.opacity[0]), 0.01f, 1e-6);
  EXPECT_EQ(g.opacity[3], before.opacity[3]);  // already more transparent: unchanged
  for (size_t i = 0; i < g.size(); i++) {
    EXPECT_EQ(adam.m.opacity[i], 0.f);
    EXPECT_EQ(adam.v.opacity[i], 0.f);
  }
  for (auto [x, y] : {std::pair{&g.mean, &before.mean}, {&g.logScale, &before.logScale}, {&g.quat, &before.quat}, {&g.color, &before.color}, {&g.sh, &before.sh}})
    EXPECT_EQ(*x, *y);
  for (const auto* moments : {&adam.m, &adam.v}) {
    const Gaussians& was = moments == &adam.m ? adamBefore.m : adamBefore.v;
    for (auto [x, y] : {std::pair{&moments->mean, &was.mean}, {&moments->logScale, &was.logScale}, {&moments->quat, &was.quat}, {&moments->color, &was.color},
                        {&moments->sh, &was.sh}})
      EXPECT_EQ(*x, *y);
  }
  EXPECT_EQ(adam.step, 40);
}

// Resets fall at every `every` of the budget, only while densification runs (before 70 %); 0 turns them off.
TEST(Training, OpacityResetScheduleStaysInsideTheDensificationWindow) {
  OpacityResetSchedule s;
  s.every = 0.175, s.densifyUntil = 0.7;
  EXPECT_EQ(s.dueBy(0.0), 0);
  EXPECT_EQ(s.dueBy(0.17), 0);
  EXPECT_EQ(s.dueBy(0.175), 1);
  EXPECT_EQ(s.dueBy(0.36), 2);
  EXPECT_EQ(s.dueBy(0.53), 3);
  EXPECT_EQ(s.dueBy(0.7), 3);  // 4 × 0.175 is where densification stops: no reset there
  EXPECT_EQ(s.dueBy(0.99), 3);
  s.every = 0.2;
  EXPECT_EQ(s.dueBy(0.65), 3);
  EXPECT_EQ(s.dueBy(1.0), 3);
  s.every = 0.7;
  EXPECT_EQ(s.dueBy(1.0), 0);
  s.every = 0;
  EXPECT_EQ(s.dueBy(0.5), 0);
}

// The plateau: a run still gaining keeps training; one whose last fifth of the budget added under 0.05 dB stops;
// nothing stops before `after` of the budget or on a window of fewer than three checks.
TEST(Training, PlateauRuleStopsOnlyWhenTheValidationViewsStopImproving) {
  PlateauRule rule;  // every 0.04, after 0.35, window 0.2, gain 0.05 dB
  std::vector<PlateauRule::Check> rising, flat, early;
  for (int k = 1; k <= 12; k++) rising.push_back({0.04 * k, 20.0 + 0.1 * k});            // +0.5 dB over the window
  for (int k = 1; k <= 12; k++) flat.push_back({0.04 * k, k <= 6 ? 20.0 + 0.5 * k : 22.98 + 0.01 * (k % 2)});  // levelled at 0.24
  for (int k = 1; k <= 8; k++) early.push_back({0.04 * k, 20.0});                        // flat, but only 0.32 of the budget
  EXPECT_FALSE(rule.reached(rising));
  EXPECT_TRUE(rule.reached(flat));
  EXPECT_FALSE(rule.reached(early));
  EXPECT_FALSE(rule.reached({{0.5, 20.0}, {0.6, 20.0}}));  // nothing before the window, and too few checks in it
  // Noise that dips below the best before the window is a plateau too.
  std::vector<PlateauRule::Check> noisy = flat;
  noisy.back().psnr = 22.5;
  EXPECT_TRUE(rule.reached(noisy));
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

// A short training run at SH degree 3 (render, L1 + D-SSIM, backward, Adam, densification with a seeded
// generator, opacity resets on the schedule with the iteration count as the budget) on a tiny synthetic
// scene: 400 random gaussians in front of an 80×60 camera fitted to a fixed pattern.
struct BriefRun {
  Gaussians g;
  float firstLoss = 0, lastLoss = 0;
  int resets = 0;
};
static BriefRun trainBriefly(uint32_t seed, int iterations, int densifyEvery, double resetEvery) {
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
  OpacityResetSchedule schedule;
  schedule.every = resetEvery;
  BriefRun run;
  for (int it = 1; it <= iterations; it++) {
    Render r;
    render(g, cam, bg, r);
    std::vector<float> dL;
    const float loss = l1SsimLoss(r.rgb, target, 80, 60, 0.2f, dL);
    if (it == 1) run.firstLoss = loss;
    run.lastLoss = loss;
    Gradients grads;
    grads.g.resize(g.size());
    for (auto* v : {&grads.g.mean, &grads.g.logScale, &grads.g.quat, &grads.g.opacity, &grads.g.color, &grads.g.sh}) std::fill(v->begin(), v->end(), 0.f);
    grads.meanScreen.assign(g.size(), 0.f);
    backward(g, cam, bg, r, dL, grads);
    adamStep(g, grads.g, adam, {1e-3f, 5e-3f, 1e-3f, 2.5e-2f, 2.5e-3f, 1.25e-4f});
    for (size_t i = 0; i < g.size(); i++)
      if (r.proj.radius[i]) stats.gradSum[i] += grads.meanScreen[i], stats.seen[i]++;
    const double fraction = double(it) / iterations;
    if (it % densifyEvery == 0 && fraction < schedule.densifyUntil) {
      densifyAndPrune(g, adam, stats, options, rng);
      stats.resize(g.size());
    }
    if (const int due = schedule.dueBy(fraction); due > run.resets) resetOpacity(g, adam), run.resets = due;
  }
  run.g = std::move(g);
  return run;
}

// The same seed and thread count give bit-identical parameters, resets included.
TEST(Training, SameSeedAndThreadsGiveIdenticalParameters) {
  const BriefRun ra = trainBriefly(5, 12, 6, 0.25), rb = trainBriefly(5, 12, 6, 0.25);
  const Gaussians &a = ra.g, &b = rb.g;
  std::printf("[training] determinism: %zu gaussians after 12 iterations with densification and %d opacity resets\n", a.size(), ra.resets);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_GT(a.size(), size_t(400));  // densification did run
  EXPECT_EQ(ra.resets, 2);           // at 25 % and 50 %
  for (auto [x, y] : {std::pair{&a.mean, &b.mean}, {&a.logScale, &b.logScale}, {&a.quat, &b.quat}, {&a.opacity, &b.opacity}, {&a.color, &b.color}, {&a.sh, &b.sh}})
    EXPECT_EQ(*x, *y);
  EXPECT_EQ(a.shDegree, 3);  // the scene trains view-dependent colour (SH degree 3)
}

// With opacity resets on the trainer's default schedule (3 resets inside the densification window) the loss
// still ends well below where it started.
TEST(Training, TrainingWithOpacityResetsStillLowersTheLoss) {
  const BriefRun withResets = trainBriefly(3, 120, 40, 0.175), without = trainBriefly(3, 120, 40, 0);
  std::printf("[training] loss %.4f → %.4f with %d opacity resets (%.4f without resets), %zu gaussians\n", withResets.firstLoss, withResets.lastLoss,
              withResets.resets, without.lastLoss, withResets.g.size());
  EXPECT_EQ(withResets.resets, 3);
  EXPECT_EQ(without.resets, 0);
  EXPECT_LT(withResets.lastLoss, 0.9f * withResets.firstLoss);
}

// The region of interest as the dense stage writes it (JSON.stringify of app/worker/dense-points.ts's region): a box
// turned 30° about the vertical, from (-2, -1, -0.5) to (2, 0.5, 0.5) along its axes.
static const char* kTurnedBox =
    "{\"center\":[0,-0.25,0],\"radius\":2.193741,\"axes\":[[0.866025,0,0.5],[0,1,0],[-0.5,0,0.866025]],\"min\":[-2,-1,-0.5],\"max\":[2,0.5,0.5]}";

// A point at box coordinates (a, b, c): a·axes[0] + b·axes[1] + c·axes[2].
static void boxPoint(const RegionOfInterest& roi, float a, float b, float c, float* out) {
  for (int j = 0; j < 3; j++) out[j] = a * roi.axes[0][j] + b * roi.axes[1][j] + c * roi.axes[2][j];
}

// The trained splat's crop keeps the gaussians whose centres lie inside the box and removes those outside any of its
// six faces, 0.01 either side of each face (the axes are rounded to 1e-6, far below that), and those the sphere
// around the box (all an older trainer would have cut by) holds but the box does not.
TEST(Training, RegionOfInterestBoxCropsGaussiansByItsFaces) {
  RegionOfInterest roi;
  ASSERT_TRUE(parseRoi(kTurnedBox, roi));
  ASSERT_TRUE(roi.box);
  EXPECT_FLOAT_EQ(roi.radius, 2.193741f);
  EXPECT_FLOAT_EQ(roi.axes[2][0], -0.5f);
  EXPECT_FLOAT_EQ(roi.min[1], -1.f);
  EXPECT_FLOAT_EQ(roi.max[0], 2.f);
  std::vector<std::array<float, 3>> at;  // box coordinates
  std::vector<char> expected;
  const float middle[3] = {0, -0.25f, 0};
  for (int k = 0; k < 3; k++)
    for (const float face : {roi.min[k], roi.max[k]})
      for (const float offset : {-0.01f, 0.01f}) {
        std::array<float, 3> p = {middle[0], middle[1], middle[2]};
        p[k] = face + offset;
        at.push_back(p);
        expected.push_back(p[k] >= roi.min[k] && p[k] <= roi.max[k] ? 1 : 0);
      }
  at.push_back({0, -0.25f, 0}), expected.push_back(1);    // the centre
  at.push_back({1.9f, 0.4f, 0.45f}), expected.push_back(1);  // near a corner, inside
  at.push_back({0, -0.25f, 1.5f}), expected.push_back(0);  // inside the sphere (1.5 < 2.19), outside the box
  at.push_back({-1.5f, -0.9f, -1.f}), expected.push_back(0);
  Gaussians g = randomGaussians(at.size(), 7);
  for (size_t i = 0; i < at.size(); i++) boxPoint(roi, at[i][0], at[i][1], at[i][2], &g.mean[3 * i]);
  for (size_t i = at.size() - 2; i < at.size(); i++) {
    const float* m = &g.mean[3 * i];
    EXPECT_LT(std::sqrt(m[0] * m[0] + (m[1] + 0.25f) * (m[1] + 0.25f) + m[2] * m[2]), roi.radius);  // inside the sphere
  }
  const std::vector<char> keep = insideRoi(g, roi);
  EXPECT_EQ(keep, expected);
  const size_t inside = size_t(std::count(expected.begin(), expected.end(), 1));
  const std::vector<float> keptColor = [&] {
    std::vector<float> c;
    for (size_t i = 0; i < keep.size(); i++)
      if (keep[i]) c.insert(c.end(), &g.color[3 * i], &g.color[3 * i + 3]);
    return c;
  }();
  keepOnly(g, nullptr, keep);
  std::printf("[training] region box: %zu of %zu gaussians kept\n", g.size(), at.size());
  EXPECT_EQ(g.size(), inside);
  EXPECT_EQ(inside, size_t(8));  // 6 just inside a face, the centre, the corner
  EXPECT_EQ(g.color, keptColor);  // the kept gaussians are the ones inside, in order
  for (size_t i = 0; i < g.size(); i++) EXPECT_TRUE(roi.contains(&g.mean[3 * i]));
}

// A region file written before the box, {center, radius}, still crops by its sphere.
TEST(Training, RegionOfInterestWithoutABoxCropsBySphere) {
  RegionOfInterest roi;
  ASSERT_TRUE(parseRoi("{\"center\": [1, 2, 3], \"radius\": 2}", roi));
  EXPECT_FALSE(roi.box);
  EXPECT_FLOAT_EQ(roi.center[2], 3.f);
  Gaussians g = randomGaussians(2, 8);
  const float in[3] = {1, 2, 4.99f}, out[3] = {1, 2, 5.01f};
  std::copy(in, in + 3, &g.mean[0]), std::copy(out, out + 3, &g.mean[3]);
  EXPECT_EQ(insideRoi(g, roi), (std::vector<char>{1, 0}));
}

TEST(Training, RegionOfInterestRefusesWhatIsNotOne) {
  RegionOfInterest roi;
  EXPECT_FALSE(parseRoi("{\"center\":[0,0,0]}", roi));                                           // no radius
  EXPECT_FALSE(parseRoi("{\"center\":[0,0],\"radius\":1}", roi));                                // a coordinate missing
  EXPECT_FALSE(parseRoi("{\"center\":[0,0,0],\"radius\":0}", roi));                              // no size
  EXPECT_FALSE(parseRoi("{\"center\":[0,0,0],\"radius\":1,\"min\":[0,0,0]}", roi));               // min without max
  EXPECT_FALSE(parseRoi("{\"center\":[0,0,0],\"radius\":1,\"min\":[1,0,0],\"max\":[0,1,1]}", roi));  // min above max
  EXPECT_FALSE(parseRoi("{\"center\":[0,0,0],\"radius\":1,\"axes\":[[1,0,0]],\"min\":[0,0,0],\"max\":[1,1,1]}", roi));
  // Without axes, a box is along the model's axes.
  ASSERT_TRUE(parseRoi("{\"center\":[0.5,0.5,0.5],\"radius\":1,\"min\":[0,0,0],\"max\":[1,1,1]}", roi));
  const float inside[3] = {0.9f, 0.1f, 0.5f}, outside[3] = {1.1f, 0.5f, 0.5f};
  EXPECT_TRUE(roi.contains(inside));
  EXPECT_FALSE(roi.contains(outside));
}

TEST(Training, RegionOfInterestIsReadFromItsFile) {
  const auto path = std::filesystem::temp_directory_path() / ("srtrain-roi-" + std::to_string(::getpid()) + ".json");
  RegionOfInterest roi;
  EXPECT_FALSE(readRoi(path.string(), roi));  // no file
  {
    std::ofstream out(path);
    out << kTurnedBox << "\n";
  }
  ASSERT_TRUE(readRoi(path.string(), roi));
  EXPECT_TRUE(roi.box);
  EXPECT_FLOAT_EQ(roi.max[2], 0.5f);
  std::filesystem::remove(path);
}

// The dense points as COLMAP's fusion writes them (float x y z, normals, uchar colour) and as other tools may
// (double coordinates, float colour in 0–1).
TEST(Training, ReadsPointsOfAnyNumericLayout) {
  const auto path = std::filesystem::temp_directory_path() / ("srtrain-points-" + std::to_string(::getpid()) + ".ply");
  {
    std::ofstream out(path, std::ios::binary);
    out << "ply\nformat binary_little_endian 1.0\nelement vertex 2\nproperty double x\nproperty double y\nproperty double z\n"
           "property float nx\nproperty uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n";
    for (int i = 0; i < 2; i++) {
      const double xyz[3] = {0.5 + i, -1.25, 3.0};
      const float normal = 1;
      const unsigned char rgb[3] = {255, 0, static_cast<unsigned char>(51 * (i + 1))};
      out.write(reinterpret_cast<const char*>(xyz), sizeof xyz).write(reinterpret_cast<const char*>(&normal), 4).write(reinterpret_cast<const char*>(rgb), 3);
    }
  }
  const PointCloud points = readPointsPly(path.string());
  ASSERT_EQ(points.xyz.size(), 6u);
  EXPECT_FLOAT_EQ(points.xyz[3], 1.5f);
  EXPECT_FLOAT_EQ(points.xyz[4], -1.25f);
  EXPECT_FLOAT_EQ(points.rgb[0], 1.f);
  EXPECT_FLOAT_EQ(points.rgb[5], 0.4f);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 1);
  EXPECT_THROW(readPointsPly(path.string()), std::runtime_error);  // truncated
  std::filesystem::remove(path);
}

#include "tests/refusal.h"
#include "train/trainer.h"

// sr-train's options are checked before anything is read, each refusal naming its flag.
TEST(Trainer, OptionsCheckNamesTheOptionOutOfRange) {
  TrainerOptions o;
  o.imagesDir = "images", o.sparseDir = "sparse", o.initPath = "points.ply";
  EXPECT_EQ(refusalOf(o), "accepted");
  TrainerOptions bad = o;
  bad.ssimWeight = 1.5f;
  EXPECT_NE(refusalOf(bad).find("--ssim-weight"), std::string::npos);
  bad = o, bad.opacityResetEvery = -0.1;
  EXPECT_NE(refusalOf(bad).find("--opacity-reset-every"), std::string::npos);
  bad = o, bad.minutes = 0;
  EXPECT_NE(refusalOf(bad).find("--minutes"), std::string::npos);
  bad = o, bad.initPath.clear();
  EXPECT_NE(refusalOf(bad).find("--init"), std::string::npos);
  float rgb[3];
  parseHexColor("#1e1f22", rgb);
  EXPECT_FLOAT_EQ(rgb[0], 30.f / 255.f);
  EXPECT_THROW(parseHexColor("1e1f2", rgb), std::invalid_argument);
}

// A camera at the origin looking down +z, its near plane at 1, its photo a plain grey: what it sees nearer than half
// that in another colour goes (it looked through it); what shows the photo's own grey there, or lies between half
// the near plane and the near plane (ground other cameras trained), stays; nothing else goes.
TEST(Training, GaussiansACameraLookedThroughAreRemoved) {
  Camera cam{};
  cam.R[0] = cam.R[4] = cam.R[8] = 1.f;
  cam.fx = cam.fy = 100.f, cam.cx = 50.f, cam.cy = 40.f, cam.width = 100, cam.height = 80;
  cam.near = 1.f;
  const std::vector<float> grey(size_t(3) * 100 * 80, 0.2f);
  Gaussians g;
  g.resize(7);
  const float centres[7][3] = {
      {0.f, 0.f, 0.3f},     // in the picture, nearer than half the near plane, mid-grey: a floater it looked through
      {2.f, 0.f, 0.3f},     // as near, but outside the picture (u = 717): the camera never looked there
      {0.f, 0.f, 2.f},      // beyond the near plane: trained in this view
      {0.f, 0.f, -0.3f},    // behind the camera
      {0.1f, 0.1f, 0.49f},  // nearer than half, mid-grey: goes
      {-0.1f, 0.1f, 0.3f},  // as near, but the photo's grey (0.22 against 0.2): stays
      {0.f, 0.1f, 0.8f},    // mid-grey, nearer than the near plane but not half of it: stays
  };
  for (int i = 0; i < 7; i++)
    for (int k = 0; k < 3; k++) g.mean[3 * i + k] = centres[i][k];
  for (int k = 0; k < 3; k++) g.color[3 * 5 + k] = (0.22f - 0.5f) / kSHC0;  // the others 0: 0.5, unlike the photo
  EXPECT_EQ(clearOfNearPlanes(g, {{&cam, &grey}}), (std::vector<char>{0, 1, 1, 1, 0, 1, 1}));
  EXPECT_EQ(clearOfNearPlanes(g, {{&cam, &grey}}, 0.f), (std::vector<char>{0, 1, 1, 1, 0, 0, 1}));  // no tolerance: every colour differs
  Camera far = cam;
  far.near = 0.4f;  // a camera whose near plane is nearer keeps them all
  EXPECT_EQ(clearOfNearPlanes(g, {{&far, &grey}}), (std::vector<char>(7, 1)));
}
