// Texture baking for a scan mesh (issue 14, item 4).
// View selection: every photo that sees a face (front-facing, inside the image, not hidden behind nearer
// surface by a z-buffer of the mesh itself in that view) is a candidate, scored by the face's projected
// area in pixels. Photo-consistency: the face's mean colour in each candidate is compared with the
// candidates' median, and views that disagree (the face is occluded there by something the mesh lacks, or
// the surface is off and the view sees what lies behind it) are dropped.
// Blending: each texel is the score-weighted mean of the kept views that see that very point (per-texel
// depth test), so neighbouring faces blend across their seams instead of switching photo abruptly.
// Atlas: one square cell per face, cells in blocks of faces that lie together on the surface (faces in
// Morton order of their centres, blocks filled in 2D Morton order), so the texture's mip levels mix only
// neighbouring surface; each cell is baked through the face's plane past the triangle, so filtering never
// reaches an unbaked texel.
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
  std::vector<int> faceView;        // the best view per face (largest projected area), -1 when no view sees it
  std::vector<int> faceViewCount;   // views blended into each face after the consistency check
  ImageRGB atlas;
  int cell = 0;                     // texels per cell side
};

struct BakeOptions {
  int maxSide = 4096;      // largest atlas side (texels)
  int preferredCell = 16;  // most texels per face cell side (when they fit)
  float texelsPerPixel = 1.f;  // texel density against the median face's best photo (a smaller cell when coarser)
  int maxViews = 6;        // most candidate views per face (the largest projected areas)
  float minScoreShare = 0.15f;  // candidates below this share of the face's best score are not used
  float weightPower = 2.f;      // blending weight = projected area ^ weightPower
  float outlierColour = 0.12f;  // RGB distance (0–1) from the candidates' median colour that drops a view
};

// Largest cell side (texels) such that faceCount cells fit into a square atlas of at most maxSide.
int atlasCellSize(size_t faceCount, int maxSide, int preferredCell);

// Cells per atlas row for faceCount faces: a whole number of placement blocks.
int atlasColumns(size_t faceCount);

// The cell (column, row) of each face: faces near each other on the surface get cells near each other.
std::vector<Eigen::Vector2i> atlasPlacement(const std::vector<Eigen::Vector3f>& vertices,
                                            const std::vector<Eigen::Vector3i>& faces, int columns);

// Per face, the index of the view that sees it with the largest projected area (-1 if none).
std::vector<int> selectViews(const std::vector<Eigen::Vector3f>& vertices, const std::vector<Eigen::Vector3i>& faces,
                             const std::vector<TextureView>& views);

BakedTexture bakeTexture(const std::vector<Eigen::Vector3f>& vertices, const std::vector<Eigen::Vector3i>& faces,
                         const std::vector<TextureView>& views, const BakeOptions& options = {});

}  // namespace sr
