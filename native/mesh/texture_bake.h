// Texture baking for a scan mesh (issue 14, item 4; docs/decisions/032-texture-patches.md).
// Each face is painted from one photo: the views that see it whole are its candidates (view_candidates.h),
// a labelling with a smoothness prior picks one per face so that neighbours share it (view_labels.h), and
// each connected group of faces with the same view — a patch — takes its texture straight from that photo:
// its UVs are the faces' projections into the photo, and its atlas rectangle is the photo's pixels around
// them, copied one texel per pixel when the atlas has room (no resampling, so edges stay as sharp as the
// photo has them). Photo pixels around each patch are kept as a margin for filtering. Seams between patches
// are levelled (seam_leveling.h). Faces no view sees get the colour of the faces around them.
#pragma once
#include <Eigen/Core>
#include <vector>

#include "lib/image.h"
#include "mesh/seam_leveling.h"
#include "mesh/view_candidates.h"
#include "mesh/view_labels.h"

namespace sr {

struct BakeOptions {
  int maxSide = 4096;          // largest atlas side (texels)
  float texelsPerPixel = 1.f;  // atlas texels per photo pixel, lowered until the patches fit maxSide
  int margin = 2;              // texels of photo kept around each patch (filtering and mip levels read past its edge)
  ConsistencyOptions views;    // which views may paint a face
  LabelOptions labels;         // how strongly neighbouring faces keep to one view
  bool levelSeams = true;      // even out the colour between patches painted from different photos
  LevelingOptions leveling;
};

struct BakedTexture {
  std::vector<Eigen::Vector2f> uv;  // per face corner (3 per face), glTF convention: (0,0) = top-left
  std::vector<int> faceView;        // the view painting each face, -1 when no view sees it
  ImageRGB atlas;
  int patches = 0;                  // connected groups of faces painted from one view
  float texelsPerPixel = 1.f;       // the scale the patches were copied at
  size_t unseenFaces = 0;           // faces no view sees, coloured from their neighbours
  float meanCorrection = 0;         // mean size (RGB distance) of the seam levelling's vertex corrections
};

// Places rectangles (width, height) in rows no wider than `width`, tallest first; fills `positions`
// (top-left corners) and returns the height used, or -1 when a rectangle is wider than `width`.
int packRows(const std::vector<Eigen::Vector2i>& sizes, int width, std::vector<Eigen::Vector2i>& positions);

BakedTexture bakeTexture(const std::vector<Eigen::Vector3f>& vertices, const std::vector<Eigen::Vector3i>& faces,
                         const std::vector<TextureView>& views, const BakeOptions& options = {});

}  // namespace sr
