// One photo per face of a scan mesh (issue 14, texturing), chosen as a labelling with a smoothness prior
// (as in Waechter et al., "Let There Be Color!", 2014): each face prefers the view that sees it largest,
// and neighbouring faces prefer the same view, so the surface falls into large patches each painted from
// one photo (sharp: no blending of slightly misregistered photos) with few seams between them.
#pragma once
#include <Eigen/Core>
#include <array>
#include <vector>

#include "mesh/view_candidates.h"

namespace sr {

// The faces across each edge of each face (-1 on a border; on an edge shared by more than two faces, the
// first two faces found are neighbours).
std::vector<std::array<int, 3>> faceNeighbours(const std::vector<Eigen::Vector3i>& F);

struct LabelOptions {
  // Cost of a seam (neighbours painted from different views) against a face's data cost, which is
  // 1 − its projected area in the view / its largest projected area (0 for its best view).
  float smoothness = 0.3f;
  int maxSweeps = 10;  // iterated conditional modes: stops earlier when a sweep changes nothing
};

// The view painting each face, one of its candidates (sorted best first; -1 for a face without any),
// minimising Σ data + smoothness × (neighbour pairs with different views) by iterated conditional modes
// from the best views. Deterministic.
std::vector<int> labelFaces(const std::vector<std::vector<Candidate>>& candidates, const std::vector<std::array<int, 3>>& neighbours,
                            const LabelOptions& options);

// Connected groups of faces with the same label (faces labelled -1 are left out), in order of their first face.
std::vector<std::vector<int>> labelPatches(const std::vector<int>& labels, const std::vector<std::array<int, 3>>& neighbours);

}  // namespace sr
