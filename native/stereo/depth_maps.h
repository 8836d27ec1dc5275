// sr-stereo's run (issue 39 item 6): options with Check(), and computeDepthMaps, which makes depth and normal
// maps for an undistorted COLMAP workspace (images/, sparse/) with our PatchMatch (patch_match.h, decision 032),
// keeps the depths another view's map confirms, and writes them in COLMAP's format under stereo/ with the
// fusion and patch-match configuration files, so that `colmap stereo_fusion` fuses them into dense points.
#pragma once
#include <cstddef>
#include <string>

#include "stereo/patch_match.h"

namespace sr::stereo {

struct StereoOptions {
  std::string workspace;     // images/ and sparse/ in, stereo/ out
  std::string skipPath;      // names of views never used, as reference or as source (held-out frames); empty: none
  int size = 320;            // the views' long side, in pixels
  int sources = 4;           // source views per reference view (stereo/source_views.h)
  int consistentViews = 1;   // a depth stays when this many source views' maps confirm it …
  float consistentDepth = 0.01f;  // … within this relative depth error …
  float consistentPixels = 2.f;   // … and this reprojection error, in pixels
  Options patchMatch;        // iterations, window, best sources (the seed is set per view)

  // Throws std::invalid_argument naming the first option out of range.
  void Check() const;
};

struct DepthMapsResult {
  size_t views = 0;
  int width = 0, height = 0;     // of the first view
  size_t keptPixels = 0, pixels = 0;  // pixels with a consistent depth, of all
};

DepthMapsResult computeDepthMaps(const StereoOptions& options);

}  // namespace sr::stereo
