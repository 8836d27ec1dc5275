// Which views each depth map is measured against, and over what depths (issue 39 item 6: this was sr-stereo's
// main). From the sparse model: a view's sources are the views sharing the most sparse points with it that stand
// at least ~1.5° apart seen from its median depth; its depth range spans the points it saw (2nd–98th percentile,
// widened by 0.8× and 1.25×).
#pragma once
#include <vector>

#include "lib/colmap_io.h"
#include "stereo/patch_match.h"

namespace sr::stereo {

struct SourceViews {
  std::vector<int> sources;      // indices into the views, most shared points first
  float minDepth = 0, maxDepth = 0;  // 0, 0: the view saw no sparse point in front of it
  bool measurable() const { return !sources.empty() && maxDepth > minDepth && minDepth > 0; }
};

// For each of `images` (views[k] is images[k] at the stereo size, same poses), at most `wanted` sources.
std::vector<SourceViews> chooseSourceViews(const sr::Model& model, const std::vector<const sr::Image*>& images, const std::vector<View>& views, int wanted);

}  // namespace sr::stereo
