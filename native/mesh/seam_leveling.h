// Seam levelling for a texture of photo patches (issue 14; Waechter et al. 2014, §5): neighbouring patches
// come from different photos, whose exposure and white balance differ on real captures (a phone's automatic
// exposure), so the colour jumps where they meet. Each patch gets an additive RGB correction per vertex, found
// by least squares so that on every seam vertex the corrected colours of the patches meeting there agree,
// while each patch's corrections vary smoothly (and stay as small as they can): the adjustment is spread over
// the patches, not piled on the seam.
#pragma once
#include <Eigen/Core>
#include <unordered_map>
#include <vector>

#include "mesh/view_candidates.h"

namespace sr {

struct LevelingOptions {
  float smoothness = 0.1f;    // weight of (g_i − g_j)² along a patch's edges against a seam vertex's (g_P − g_Q + f_P − f_Q)²
  float maxDifference = 0.3f;  // seam colour differences beyond this (RGB distance, 0–1) are an occlusion or an edge, not exposure: ignored
};

// Per patch, the correction of each of its vertices (mesh vertex index → RGB to add).
using PatchCorrections = std::vector<std::unordered_map<int, Eigen::Vector3f>>;

// `patches`: the faces of each patch; `patchView`: the photo painting each.
PatchCorrections levelSeams(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F,
                            const std::vector<std::vector<int>>& patches, const std::vector<int>& patchView,
                            const std::vector<TextureView>& views, const LevelingOptions& options = {});

}  // namespace sr
