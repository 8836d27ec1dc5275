// PatchMatch stereo on scenes rendered here with known depth: a slanted textured plane and a textured sphere
// in front of a wall. Each test prints what it measured next to its bound.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include <Eigen/Geometry>

#include "stereo/patch_match.h"

using sr::stereo::View;

namespace {

float texture(float x, float y) {
  return 0.5f + 0.2f * std::sin(7.3f * x + 1.1f) * std::cos(5.1f * y) + 0.15f * std::sin(13.7f * x * y + 3.f * y) + 0.1f * std::cos(17.f * x - 9.f * y);
}

// A scene: the ray parameter s of the first hit of c + s·dir (world), and the texture there.
struct Scene {
  std::function<float(const Eigen::Vector3f&, const Eigen::Vector3f&)> hit;
  std::function<float(const Eigen::Vector3f&)> shade;
};

// The slanted plane z = 4 + 0.25·x.
Scene slantedPlane() {
  return {[](const Eigen::Vector3f& c, const Eigen::Vector3f& d) { return (4.f + 0.25f * c.x() - c.z()) / (d.z() - 0.25f * d.x()); },
          [](const Eigen::Vector3f& X) { return texture(X.x(), X.y()); }};
}

// A floor y = 1.2 (y points down), seen at a grazing angle as a capture sees the ground.
Scene floorPlane() {
  return {[](const Eigen::Vector3f& c, const Eigen::Vector3f& d) { return d.y() > 1e-6f ? (1.2f - c.y()) / d.y() : 1e3f; },
          [](const Eigen::Vector3f& X) { return texture(1.5f * X.x(), 1.5f * X.z()); }};
}

// A sphere of radius 1 at (0, 0, 4) in front of a wall at z = 6.
Scene sphere() {
  return {[](const Eigen::Vector3f& c, const Eigen::Vector3f& d) {
            const Eigen::Vector3f o = c - Eigen::Vector3f(0, 0, 4);
            const float a = d.dot(d), b = o.dot(d), cc = o.dot(o) - 1.f, disc = b * b - a * cc;
            if (disc > 0) {
              const float s = (-b - std::sqrt(disc)) / a;
              if (s > 0) return s;
            }
            return (6.f - c.z()) / d.z();
          },
          [](const Eigen::Vector3f& X) { return texture(X.x() + 0.4f * X.z(), X.y() - 0.3f * X.z()); }};
}

View camera(const Scene& scene, float cx, float cy = 0.f, int width = 160, int height = 120, float pitch = 0.f) {
  View v;
  v.R = Eigen::AngleAxisf(pitch, Eigen::Vector3f::UnitX()).toRotationMatrix();  // pitch > 0: looks down (+y)
  v.width = width, v.height = height;
  const float f = 150.f * width / 160.f;
  v.K << f, 0, width / 2.f, 0, f, height / 2.f, 0, 0, 1;
  v.t = -v.R * Eigen::Vector3f(cx, cy, 0);
  v.gray.resize(size_t(v.width) * v.height);
  const Eigen::Vector3f c = v.center();
  for (int y = 0; y < v.height; y++)
    for (int x = 0; x < v.width; x++) {
      // Average 4 sub-samples, as a camera integrates over its pixel.
      float sum = 0;
      for (int k = 0; k < 4; k++) {
        const Eigen::Vector3f dir = v.R.transpose() * v.K.inverse() * Eigen::Vector3f(x + 0.25f + 0.5f * (k % 2), y + 0.25f + 0.5f * (k / 2), 1.f);
        sum += scene.shade(c + scene.hit(c, dir) * dir);
      }
      v.gray[size_t(y) * v.width + x] = sum / 4;
    }
  return v;
}

// Depth (camera z) of the pixel centre's ray: the ray R^T·K^-1·(x + 0.5, y + 0.5, 1) has camera z 1.
float trueDepth(const Scene& scene, const View& v, int x, int y) {
  return scene.hit(v.center(), v.R.transpose() * v.K.inverse() * Eigen::Vector3f(x + 0.5f, y + 0.5f, 1.f));
}

struct Measured {
  double coverage, median, within, meanSigned;
};

Measured measure(const Scene& scene, const View& ref, const std::vector<float>& depth, float bound) {
  std::vector<float> errors;
  double signedSum = 0;
  for (int y = 0; y < ref.height; y++)
    for (int x = 0; x < ref.width; x++) {
      const float d = depth[size_t(y) * ref.width + x];
      if (!(d > 0)) continue;
      const float truth = trueDepth(scene, ref, x, y);
      errors.push_back(std::fabs(d - truth) / truth);
      signedSum += (d - truth) / truth;
    }
  if (errors.empty()) return {0, 1, 0, 0};
  const double meanSigned = signedSum / errors.size();
  std::sort(errors.begin(), errors.end());
  const double within = double(std::count_if(errors.begin(), errors.end(), [&](float e) { return e <= bound; })) / (ref.width * ref.height);
  return {double(errors.size()) / (ref.width * ref.height), errors[errors.size() / 2], within, meanSigned};
}

// Three cameras' maps, as sr-stereo makes them: each view's PatchMatch against the other two, then the
// reference's depths kept where the others' maps confirm them (1 %, 2 px). `raw` gets the reference's map
// before the check.
sr::stereo::DepthNormal consistentThreeViews(const View& ref, const View& left, const View& right, float minDepth, float maxDepth,
                                             sr::stereo::DepthNormal* raw) {
  sr::stereo::Options o;
  sr::stereo::DepthNormal result = sr::stereo::patchMatch(ref, {&left, &right}, minDepth, maxDepth, o);
  if (raw) *raw = result;
  o.seed = 2;
  const auto leftResult = sr::stereo::patchMatch(left, {&ref, &right}, minDepth, maxDepth, o);
  o.seed = 3;
  const auto rightResult = sr::stereo::patchMatch(right, {&ref, &left}, minDepth, maxDepth, o);
  sr::stereo::keepConsistent(ref, result.depth, {&left, &right}, {&leftResult.depth, &rightResult.depth}, 1, 0.01f, 2.f);
  return result;
}

}  // namespace

// A slanted textured plane seen by three cameras, each one's map computed and then checked against the other
// two as sr-stereo does: median relative depth error ≤ 0.5 %, ≥ 75 % of all pixels within 1 % (the strips that one source cannot see are lost), a mean signed
// error under 0.1 % (no bias), the normals within 3° (median).
TEST(Stereo, RecoversASlantedTexturedPlane) {
  const Scene scene = slantedPlane();
  const View ref = camera(scene, 0.f), left = camera(scene, -0.3f), right = camera(scene, 0.3f);
  sr::stereo::DepthNormal alone;
  const sr::stereo::DepthNormal result = consistentThreeViews(ref, left, right, 2.5f, 6.5f, &alone);
  const Measured raw = measure(scene, ref, alone.depth, 0.01f);
  const Measured m = measure(scene, ref, result.depth, 0.01f);
  std::printf("[stereo] plane, PatchMatch alone: %.1f %% of pixels with a depth, median relative error %.5f, %.1f %% of all pixels within 1 %%, "
              "mean signed error %+.5f\n",
              100 * raw.coverage, raw.median, 100 * raw.within, raw.meanSigned);
  std::printf("[stereo] plane, consistent between views: %.1f %% of pixels with a depth, median relative error %.5f (bound 0.005), %.1f %% of all pixels "
              "within 1 %% (bound 75 %%), mean signed error %+.5f (bound ±0.001)\n",
              100 * m.coverage, m.median, 100 * m.within, m.meanSigned);
  EXPECT_LE(m.median, 0.005);
  EXPECT_GE(m.within, 0.75);
  EXPECT_LE(std::fabs(m.meanSigned), 0.001);

  // PatchMatch's normals: the plane's normal (0.25, 0, −1)/|·| facing the camera.
  const Eigen::Vector3f truth = Eigen::Vector3f(0.25f, 0, -1).normalized();
  std::vector<float> angles;
  const size_t plane = size_t(ref.width) * ref.height;
  for (size_t i = 0; i < plane; i++)
    if (result.depth[i] > 0)
      angles.push_back(std::acos(std::clamp(Eigen::Vector3f(result.normals[i], result.normals[plane + i], result.normals[2 * plane + i]).dot(truth), -1.f, 1.f)) *
                       180.f / float(M_PI));
  ASSERT_FALSE(angles.empty());
  std::sort(angles.begin(), angles.end());
  const double within5 = double(std::count_if(angles.begin(), angles.end(), [](float a) { return a <= 5.f; })) / angles.size();
  std::printf("[stereo] plane normals: median angle to the truth %.2f° (bound 3°), %.1f %% within 5° (bound 80 %%)\n", angles[angles.size() / 2], 100 * within5);
  EXPECT_LE(angles[angles.size() / 2], 3.f);
  EXPECT_GE(within5, 0.8);
}

// A textured floor seen from 1.2 above by cameras pitched down 30° (the ground of a capture, seen at 10–50°):
// no depth bias (the mean signed error of the pixels within 2 % under 0.1 %), median error ≤ 0.5 %, ≥ 60 % of all
// pixels within 2 %. PatchMatch alone puts wrong depths (up to 4× too far) in the side strips of the near floor
// that only one source sees and on the far, aliased floor; the consistency check against the sources' own maps
// removes most but not all of them (with three cameras on a line, a false match of two views is found by both),
// so the mean signed error of all pixels is printed, not bounded.
TEST(Stereo, RecoversAFloorWithoutBias) {
  const Scene scene = floorPlane();
  const float pitch = 30.f * float(M_PI) / 180.f;
  const View ref = camera(scene, 0.f, 0.f, 160, 120, pitch), left = camera(scene, -0.3f, 0.f, 160, 120, pitch), right = camera(scene, 0.3f, 0.f, 160, 120, pitch);
  sr::stereo::DepthNormal alone;
  const sr::stereo::DepthNormal result = consistentThreeViews(ref, left, right, 1.f, 12.f, &alone);
  const Measured raw = measure(scene, ref, alone.depth, 0.02f);
  const Measured m = measure(scene, ref, result.depth, 0.02f);
  std::printf("[stereo] floor, PatchMatch alone: %.1f %% of pixels with a depth, median relative error %.5f, %.1f %% of all pixels within 2 %%, "
              "mean signed error %+.5f\n",
              100 * raw.coverage, raw.median, 100 * raw.within, raw.meanSigned);
  double signedSum = 0;
  size_t inliers = 0;
  for (int y = 0; y < ref.height; y++)
    for (int x = 0; x < ref.width; x++) {
      const float d = result.depth[size_t(y) * ref.width + x], truth = trueDepth(scene, ref, x, y);
      if (d > 0 && std::fabs(d - truth) <= 0.02f * truth) signedSum += (d - truth) / truth, inliers++;
    }
  const double inlierBias = inliers ? signedSum / inliers : 1.0;
  std::printf("[stereo] floor, consistent between views: %.1f %% of pixels with a depth, median relative error %.5f (bound 0.005), %.1f %% of all pixels within 2 %% (bound 60 %%), "
              "mean signed error %+.5f (not bounded), of those within 2 %% %+.5f (bound ±0.001)\n",
              100 * m.coverage, m.median, 100 * m.within, m.meanSigned, inlierBias);
  EXPECT_LE(m.median, 0.005);
  EXPECT_GE(m.within, 0.6);
  EXPECT_LE(std::fabs(inlierBias), 0.001);
}

// A textured sphere in front of a wall, four source views around the reference: median relative error ≤ 1 %,
// ≥ 75 % of all pixels within 2 % (the sphere's rim and the wall it hides are the hard part).
TEST(Stereo, RecoversATexturedSphere) {
  const Scene scene = sphere();
  const View ref = camera(scene, 0.f), a = camera(scene, -0.3f), b = camera(scene, 0.3f), c = camera(scene, 0.f, -0.3f), d = camera(scene, 0.f, 0.3f);
  const sr::stereo::DepthNormal result = sr::stereo::patchMatch(ref, {&a, &b, &c, &d}, 2.5f, 7.5f, sr::stereo::Options());
  const Measured m = measure(scene, ref, result.depth, 0.02f);
  std::printf("[stereo] sphere: %.1f %% of pixels with a depth, median relative error %.5f (bound 0.01), %.1f %% of all pixels within 2 %% (bound 75 %%), "
              "mean signed error %+.5f\n",
              100 * m.coverage, m.median, 100 * m.within, m.meanSigned);
  EXPECT_LE(m.median, 0.01);
  EXPECT_GE(m.within, 0.75);
}

// The same input and seed give the same maps, bit for bit, on 1 and on 2 threads (a pixel's random numbers
// depend on the pixel, and a red-black pass reads only the other colour).
TEST(Stereo, IsDeterministic) {
  const Scene scene = slantedPlane();
  const View ref = camera(scene, 0.f, 0.f, 80, 60), left = camera(scene, -0.3f, 0.f, 80, 60), right = camera(scene, 0.3f, 0.f, 80, 60);
  sr::stereo::Options o;
  o.iterations = 3;
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto first = sr::stereo::patchMatch(ref, {&left, &right}, 2.5f, 6.5f, o);
  omp_set_num_threads(2);
  const auto second = sr::stereo::patchMatch(ref, {&left, &right}, 2.5f, 6.5f, o);
  omp_set_num_threads(threads);
  EXPECT_EQ(first.depth, second.depth);
  EXPECT_EQ(first.normals, second.normals);
  o.seed = 2;
  const auto other = sr::stereo::patchMatch(ref, {&left, &right}, 2.5f, 6.5f, o);
  EXPECT_NE(first.depth, other.depth);
}

// A wrong depth injected into one view's map is removed by the consistency check; the right ones stay.
TEST(Stereo, ConsistencyFilterRemovesWrongDepths) {
  const Scene scene = slantedPlane();
  const View ref = camera(scene, 0.f), other = camera(scene, 0.3f);
  std::vector<float> refDepth(size_t(ref.width) * ref.height), otherDepth(refDepth.size());
  for (int y = 0; y < ref.height; y++)
    for (int x = 0; x < ref.width; x++)
      refDepth[size_t(y) * ref.width + x] = trueDepth(scene, ref, x, y), otherDepth[size_t(y) * ref.width + x] = trueDepth(scene, other, x, y);
  const size_t centre = size_t(60) * ref.width + 80;
  refDepth[centre] *= 1.2f;
  sr::stereo::keepConsistent(ref, refDepth, {&other}, {&otherDepth}, 1, 0.01f, 1.5f);
  EXPECT_EQ(refDepth[centre], 0.f);
  size_t kept = 0;
  for (float d : refDepth) kept += d > 0;
  // Everything the other camera sees stays (its field of view covers most of the reference's).
  EXPECT_GT(kept, refDepth.size() * 8 / 10);
}

#include "stereo/source_views.h"

// Four cameras on a line looking down +Z at points 10 units away: the reference's sources are ranked by shared
// points, a camera too close to it (under ~1.5° from the median depth) is passed over, and its depth range spans
// the points it saw.
TEST(SourceViews, RankedBySharedPointsWithEnoughBaseline) {
  sr::Model model;
  const double xs[4] = {0.0, 0.1, 1.0, 2.0};  // camera 1 stands 0.1 from the reference: 0.01 × depth, too close
  for (int k = 0; k < 4; k++) {
    sr::Image image;
    image.id = uint32_t(k + 1), image.name = "v" + std::to_string(k);
    image.t = Eigen::Vector3d(-xs[k], 0, 0);  // world → camera: centre at (xs[k], 0, 0)
    model.images.push_back(image);
  }
  for (int64_t id = 0; id < 40; id++) {
    sr::Point3D p;
    p.id = id, p.xyz = Eigen::Vector3d(0.05 * double(id % 10), 0.05 * double(id / 10), 8.0 + 0.1 * double(id));  // depths 8 … 11.9
    model.points.push_back(p);
    model.images[0].point3d_ids.push_back(id);
    model.images[1].point3d_ids.push_back(id);                   // shares all 40
    if (id < 30) model.images[2].point3d_ids.push_back(id);      // shares 30
    if (id < 20) model.images[3].point3d_ids.push_back(id);      // shares 20
  }
  model.images[0].point3d_ids.push_back(-1);  // an observation without a point counts for nothing
  std::vector<const sr::Image*> images;
  std::vector<sr::stereo::View> views(4);
  for (int k = 0; k < 4; k++) {
    images.push_back(&model.images[size_t(k)]);
    views[size_t(k)].t = model.images[size_t(k)].t.cast<float>();
  }
  const auto chosen = sr::stereo::chooseSourceViews(model, images, views, 2);
  EXPECT_EQ(chosen[0].sources, (std::vector<int>{2, 3}));  // not 1, though it shares the most
  EXPECT_NEAR(chosen[0].minDepth, 0.8f * 8.0f, 1e-4);     // 2nd percentile of 8 … 11.9 is the first
  EXPECT_NEAR(chosen[0].maxDepth, 1.25f * 11.8f, 1e-4);   // 98th: the 39th of 40
  EXPECT_TRUE(chosen[0].measurable());
  EXPECT_EQ(chosen[3].sources, (std::vector<int>{0, 1}));  // ties broken by index; all far enough from x = 2
  const auto one = sr::stereo::chooseSourceViews(model, images, views, 1);
  EXPECT_EQ(one[0].sources, (std::vector<int>{2}));
}

#include "stereo/depth_maps.h"
#include "tests/refusal.h"

// sr-stereo's options name the flag that is out of range (its main only parses flags into them).
TEST(DepthMaps, OptionsCheckNamesTheOptionOutOfRange) {
  sr::stereo::StereoOptions o;
  o.workspace = "dense";
  EXPECT_EQ(refusalOf(o), "accepted");
  sr::stereo::StereoOptions bad = o;
  bad.size = 16;
  EXPECT_NE(refusalOf(bad).find("--size"), std::string::npos);
  bad = o, bad.patchMatch.windowRadius = 6;
  EXPECT_NE(refusalOf(bad).find("--window"), std::string::npos);
  bad = o, bad.patchMatch.bestSources = 0;
  EXPECT_NE(refusalOf(bad).find("--best"), std::string::npos);
  bad = o, bad.consistentViews = 0;
  EXPECT_NE(refusalOf(bad).find("--consistent-views"), std::string::npos);
  bad = o, bad.workspace.clear();
  EXPECT_NE(refusalOf(bad).find("--workspace"), std::string::npos);
  // And the run refuses them before reading anything.
  EXPECT_THROW(sr::stereo::computeDepthMaps(bad), std::invalid_argument);
}
