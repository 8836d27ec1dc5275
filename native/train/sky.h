// Sky splats (issue 38 item 8): a shell of flat gaussians far outside the scene, in the directions the training
// cameras look, so that what lies beyond the measured points (sky, distant walls and trees) is fitted by splats at
// about infinity — drawn wherever the viewer looks that way — instead of by floaters in front of the subject or
// by a background colour that the viewer does not show.
#pragma once
#include <vector>

#include "train/raster.h"

namespace sr::train {

struct SkyShell {
  float center[3] = {0, 0, 0};
  float radius = 0;
  // Gaussians at least this far from the centre are the sky's (kept by the region-of-interest crop).
  float innerRadius() const { return 0.5f * radius; }
  bool contains(const float* mean) const;
};

// The shell around the cameras' centroid, at `factor` times the scene's extent, or twice as far as the farthest
// of the (99th percentile of the) initial points when that is farther.
SkyShell skyShellAround(const float centroid[3], float sceneExtent, const std::vector<float>& pointsXyz, float factor = 10.f);

// About `target` gaussians spread evenly (a Fibonacci sphere) over the directions at least one view sees (or nearly:
// a tenth of the picture beyond its edges), each
// flat (thin along the radius), overlapping its neighbours, coloured by the mean of the pixels that see it, with
// opacity `opacity`. Empty when no view sees any direction or target is 0.
Gaussians skySplats(const SkyShell& shell, const std::vector<PhotoView>& views, size_t target, float opacity = 0.9f);

}  // namespace sr::train
