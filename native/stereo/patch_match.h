// PatchMatch multi-view stereo (issue 14, decision 032): every pixel of a reference view holds a slanted
// plane — a depth and a normal in the camera frame. Planes start random (depth uniform in inverse depth
// within the view's range, normal facing the camera), then a few red-black checkerboard iterations let each
// pixel try its neighbours' planes (carried to its own pixel) and random perturbations that shrink with every
// iteration. A plane's cost is 1 − NCC of a (2r+1)² window, sampled with a stride and bilateral weights,
// warped through the plane-induced homography into each source view, averaged over the best k sources.
// Randomness is a hash of (seed, iteration, pixel), and a pixel only reads pixels of the other colour, so the
// result does not depend on the thread count. A geometric-consistency filter then keeps the depths that
// neighbouring views' own depth maps confirm.
#pragma once
#include <Eigen/Core>
#include <Eigen/LU>
#include <cstdint>
#include <vector>

namespace sr::stereo {

struct View {
  int width = 0, height = 0;
  std::vector<float> gray;  // row-major, 0–1
  Eigen::Matrix3f K = Eigen::Matrix3f::Identity();
  Eigen::Matrix3f R = Eigen::Matrix3f::Identity();  // world → camera
  Eigen::Vector3f t = Eigen::Vector3f::Zero();
  Eigen::Vector3f center() const { return -R.transpose() * t; }
};

struct Options {
  int iterations = 5;
  int windowRadius = 4;       // a (2r+1)² window …
  int windowStride = 2;       // … sampled every `stride` pixels
  float sigmaColor = 0.08f;   // bilateral weight exp(−|ΔI|/σc − Δx²/(2σs²)), σs = r; 0: plain NCC
  int bestSources = 2;        // the cost of this many best source views is averaged
  float minNcc = 0.45f;       // below (averaged): no depth
  float minStdDev = 0.01f;    // textureless windows of the reference get no depth
  uint64_t seed = 1;          // per view: the same seed gives the same maps
};

struct DepthNormal {
  std::vector<float> depth;    // 0 = none
  std::vector<float> normals;  // 3 planes (x, y, z), camera frame, facing the camera; 0 where no depth
  std::vector<float> cost;     // averaged 1 − NCC of the kept plane
};

// Depth and normal per pixel of `ref` between minDepth and maxDepth.
DepthNormal patchMatch(const View& ref, const std::vector<const View*>& sources, float minDepth, float maxDepth, const Options& options);

// Keeps a depth when at least `minViews` of `others` see the same point within `relative` depth error and
// `pixels` reprojection error (their depth maps given in `otherDepths`, same order).
void keepConsistent(const View& ref, std::vector<float>& depth, const std::vector<const View*>& others, const std::vector<const std::vector<float>*>& otherDepths,
                    int minViews, float relative, float pixels);

}  // namespace sr::stereo
