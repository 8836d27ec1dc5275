// Texture baking for a scan mesh (issue 14, item 4): each face takes its colour from the one photo that
// sees it largest (projected area in pixels, visibility by a z-buffer of the mesh itself in that view);
// each face gets its own square cell of a grid atlas, baked from that photo. The whole cell is baked
// through the face's plane (extrapolated past the triangle), so texture filtering never reaches an
// unbaked texel.
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

struct BakedTexture {
  std::vector<Eigen::Vector2f> uv;  // per face corner (3 per face), glTF convention: (0,0) = top-left
  std::vector<int> faceView;        // chosen view per face, -1 when no view sees it
  ImageRGB atlas;
  int cell = 0;                     // texels per cell side
};

// Largest cell side (texels) such that faceCount cells fit into a square atlas of at most maxSide.
int atlasCellSize(size_t faceCount, int maxSide, int preferredCell);

// Per face, the index of the view that sees it with the largest projected area (-1 if none).
std::vector<int> selectViews(const std::vector<Eigen::Vector3f>& vertices, const std::vector<Eigen::Vector3i>& faces,
                             const std::vector<TextureView>& views);

BakedTexture bakeTexture(const std::vector<Eigen::Vector3f>& vertices, const std::vector<Eigen::Vector3i>& faces,
                         const std::vector<TextureView>& views, int maxSide = 4096, int preferredCell = 16);

}  // namespace sr
