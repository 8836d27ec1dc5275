// Which photos see which faces of a scan mesh (issue 14, texturing): pinhole views, the mesh's own depth
// buffer in each view, and per face the views that see it whole with their projected areas; views whose
// colour of a face disagrees with the others' (an occluder the mesh lacks, or a surface slightly off so the
// view sees past it) are dropped.
#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

#include "lib/image.h"

namespace sr {

// A pinhole view: world → camera x_c = R x + t, pixel = (fx x/z + cx, fy y/z + cy), pixel centres at +0.5.
struct TextureView {
  double fx = 0, fy = 0, cx = 0, cy = 0;
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  Eigen::Vector3d t = Eigen::Vector3d::Zero();
  ImageRGB image;
};

struct Projected {
  Eigen::Vector2d px;
  double depth;
};

inline Projected project(const TextureView& v, const Eigen::Vector3f& X) {
  const Eigen::Vector3d c = v.R * X.cast<double>() + v.t;
  return {{v.fx * c.x() / c.z() + v.cx, v.fy * c.y() / c.z() + v.cy}, c.z()};
}

// Nearest depth per pixel of the mesh rendered into the view (infinity where empty).
std::vector<float> depthBuffer(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F, const TextureView& v);

// Whether a projected point is inside the image and is the nearest surface there: its depth matches the
// z-buffer within 1 % somewhere in its 3×3 pixel neighbourhood (a point on an edge of its face).
bool seenAt(const std::vector<float>& z, int W, int H, const Projected& q);

struct Candidate {
  int view;
  float score;  // projected area in pixels
};

// Every view that sees each face whole (front-facing, corners and centre visible), with its score.
std::vector<std::vector<Candidate>> candidateViews(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F,
                                                   const std::vector<TextureView>& views, const std::vector<std::vector<float>>& depths);

// The face's mean colour in one view: the photo sampled at seven points spread over the triangle.
Eigen::Vector3f meanColour(const Eigen::Vector3f* corners, const TextureView& v);

struct ConsistencyOptions {
  int maxViews = 8;             // most candidate views per face (the largest projected areas)
  float minScoreShare = 0.15f;  // candidates below this share of the face's best score are not used
  float outlierColour = 0.12f;  // RGB distance (0–1) from the candidates' median colour that drops a view
};

// The candidates a face may be painted from, best first: the best-scored ones, without views whose colour of
// the face disagrees with the others' median (at least three views are needed to outvote one).
std::vector<Candidate> consistentViews(std::vector<Candidate> candidates, const Eigen::Vector3f* corners,
                                       const std::vector<TextureView>& views, const ConsistencyOptions& o);

// Per face, the index of the view that sees it with the largest projected area (-1 if none).
std::vector<int> selectViews(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F,
                             const std::vector<TextureView>& views);

}  // namespace sr
