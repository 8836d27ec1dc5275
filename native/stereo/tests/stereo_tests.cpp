#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "stereo/plane_sweep.h"

using sr::stereo::View;

namespace {

// A textured slanted plane z = 4 + 0.25·x (world), seen by cameras on a line at y = 0 looking along +z.
float texture(float x, float y) {
  return 0.5f + 0.2f * std::sin(7.3f * x + 1.1f) * std::cos(5.1f * y) + 0.15f * std::sin(13.7f * x * y + 3.f * y) + 0.1f * std::cos(17.f * x - 9.f * y);
}

float trueDepth(const View& v, int x, int y) {
  // Ray from the camera centre c through the pixel; intersect with z − 0.25x = 4.
  const Eigen::Vector3f dir = v.R.transpose() * (v.K.inverse() * Eigen::Vector3f(x + 0.5f, y + 0.5f, 1.f));
  const Eigen::Vector3f c = v.center();
  const float s = (4.f + 0.25f * c.x() - c.z()) / (dir.z() - 0.25f * dir.x());
  return (v.R * (c + s * dir) + v.t).z();
}

View camera(float cx) {
  View v;
  v.width = 160, v.height = 120;
  v.K << 150, 0, 80, 0, 150, 60, 0, 0, 1;
  v.t = -Eigen::Vector3f(cx, 0, 0);
  v.gray.resize(size_t(v.width) * v.height);
  for (int y = 0; y < v.height; y++)
    for (int x = 0; x < v.width; x++) {
      // Average 4 sub-samples, as a camera integrates over its pixel.
      float sum = 0;
      for (int k = 0; k < 4; k++) {
        const float px = x + 0.25f + 0.5f * (k % 2), py = y + 0.25f + 0.5f * (k / 2);
        const Eigen::Vector3f dir = v.K.inverse() * Eigen::Vector3f(px, py, 1.f);
        const Eigen::Vector3f c = v.center();
        const float s = (4.f + 0.25f * c.x() - c.z()) / (dir.z() - 0.25f * dir.x());
        const Eigen::Vector3f X = c + s * dir;
        sum += texture(X.x(), X.y());
      }
      v.gray[size_t(y) * v.width + x] = sum / 4;
    }
  return v;
}

}  // namespace

// Plane sweep on a slanted textured plane seen by three cameras: median relative depth error ≤ 1 %, and
// ≥ 90 % of the pixels that got a depth within 2 % (printed).
TEST(Stereo, RecoversASlantedTexturedPlane) {
  const View ref = camera(0.f), left = camera(-0.3f), right = camera(0.3f);
  sr::stereo::Options o;
  o.planes = 96;
  const std::vector<float> depth = sr::stereo::sweep(ref, {&left, &right}, 2.5f, 6.5f, o);
  std::vector<float> errors;
  for (int y = 0; y < ref.height; y++)
    for (int x = 0; x < ref.width; x++) {
      const float d = depth[size_t(y) * ref.width + x];
      if (d > 0) errors.push_back(std::fabs(d - trueDepth(ref, x, y)) / trueDepth(ref, x, y));
    }
  ASSERT_GT(errors.size(), size_t(ref.width * ref.height / 2));
  std::sort(errors.begin(), errors.end());
  const float median = errors[errors.size() / 2];
  const double within = double(std::count_if(errors.begin(), errors.end(), [](float e) { return e <= 0.02f; })) / errors.size();
  std::printf("[stereo] plane: %.1f %% of pixels with a depth, median relative error %.4f (bound 0.01), %.1f %% within 2 %% (bound 90 %%)\n",
              100.0 * errors.size() / (ref.width * ref.height), median, 100 * within);
  EXPECT_LE(median, 0.01f);
  EXPECT_GE(within, 0.9);

  // Normals from the depth map: the plane's normal (0.25, 0, −1)/|·| facing the camera, within 10°.
  const auto normals = sr::stereo::normalsFromDepth(ref, depth);
  const Eigen::Vector3f truth = Eigen::Vector3f(0.25f, 0, -1).normalized();
  std::vector<float> angles;
  const size_t plane = size_t(ref.width) * ref.height;
  for (size_t i = 0; i < plane; i++)
    if (normals[i] != 0 || normals[plane + i] != 0 || normals[2 * plane + i] != 0)
      angles.push_back(std::acos(std::clamp(Eigen::Vector3f(normals[i], normals[plane + i], normals[2 * plane + i]).dot(truth), -1.f, 1.f)) * 180.f / float(M_PI));
  std::sort(angles.begin(), angles.end());
  std::printf("[stereo] plane normals: median angle to the truth %.2f° (bound 10°)\n", angles[angles.size() / 2]);
  EXPECT_LE(angles[angles.size() / 2], 10.f);
}

// A wrong depth injected into one view's map is removed by the consistency check; the right ones stay.
TEST(Stereo, ConsistencyFilterRemovesWrongDepths) {
  const View ref = camera(0.f), other = camera(0.3f);
  std::vector<float> refDepth(size_t(ref.width) * ref.height), otherDepth(refDepth.size());
  for (int y = 0; y < ref.height; y++)
    for (int x = 0; x < ref.width; x++) refDepth[size_t(y) * ref.width + x] = trueDepth(ref, x, y), otherDepth[size_t(y) * ref.width + x] = trueDepth(other, x, y);
  const size_t centre = size_t(60) * ref.width + 80;
  refDepth[centre] *= 1.2f;
  sr::stereo::keepConsistent(ref, refDepth, {&other}, {&otherDepth}, 1, 0.01f, 1.5f);
  EXPECT_EQ(refDepth[centre], 0.f);
  size_t kept = 0;
  for (float d : refDepth) kept += d > 0;
  // Everything the other camera sees stays (its field of view covers most of the reference's).
  EXPECT_GT(kept, refDepth.size() * 8 / 10);
}
