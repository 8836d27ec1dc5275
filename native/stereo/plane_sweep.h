// Multi-view plane-sweep stereo (issue 14): for a reference view, fronto-parallel planes sampled uniformly
// in inverse depth are swept through the scene; each source view is warped onto the reference through each
// plane, and the normalised cross-correlation (NCC) of a small window, averaged over the best source views,
// picks the depth (with a parabola fit between planes). A geometric-consistency filter then keeps the depths
// that neighbouring views' own depth maps confirm.
#pragma once
#include <Eigen/Core>
#include <Eigen/LU>
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
  int planes = 128;
  int windowRadius = 3;     // a (2r+1)² window
  int bestSources = 2;      // the NCC of this many best source views is averaged
  float minNcc = 0.45f;     // below: no depth
  float minStdDev = 0.01f;  // textureless windows of the reference get no depth
};

// Depth per pixel of `ref` (0 = none) and its NCC score.
std::vector<float> sweep(const View& ref, const std::vector<const View*>& sources, float minDepth, float maxDepth, const Options& options,
                         std::vector<float>* score = nullptr);

// Keeps a depth when at least `minViews` of `others` see the same point within `relative` depth error and
// `pixels` reprojection error (their depth maps given in `otherDepths`, same order).
void keepConsistent(const View& ref, std::vector<float>& depth, const std::vector<const View*>& others, const std::vector<const std::vector<float>*>& otherDepths,
                    int minViews, float relative, float pixels);

// Unit normals (3 planes, camera frame, facing the camera) from the depth map's gradients; 0 where unknown.
std::vector<float> normalsFromDepth(const View& view, const std::vector<float>& depth);

}  // namespace sr::stereo
