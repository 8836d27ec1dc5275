#include "view_labels.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <unordered_map>

namespace sr {

std::vector<std::array<int, 3>> faceNeighbours(const std::vector<Eigen::Vector3i>& F) {
  std::vector<std::array<int, 3>> out(F.size(), {-1, -1, -1});
  std::unordered_map<uint64_t, int> open;  // edge → the (face × 3 + side) that first had it
  open.reserve(F.size() * 2);
  for (size_t fi = 0; fi < F.size(); ++fi)
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = uint32_t(F[fi][k]), b = uint32_t(F[fi][(k + 1) % 3]);
      const uint64_t key = (uint64_t(std::min(a, b)) << 32) | std::max(a, b);
      auto [it, inserted] = open.try_emplace(key, int(fi * 3 + k));
      if (inserted || it->second < 0) continue;
      const int other = it->second;
      out[fi][k] = other / 3;
      out[other / 3][other % 3] = int(fi);
      it->second = -1;  // paired: a third face on this edge stays unconnected
    }
  return out;
}

namespace {

// Data cost of painting face fi from `view`: 1 − its area there / its best area; infinite when not a candidate.
float dataCost(const std::vector<Candidate>& cands, int view) {
  for (const Candidate& c : cands)
    if (c.view == view) return 1.f - c.score / cands.front().score;
  return std::numeric_limits<float>::infinity();
}

// Moves whole patches to a neighbouring patch's view when that lowers the energy: a face at a straight
// boundary between two patches cannot move alone without adding as much seam as it removes (where iterated
// conditional modes stop), but the patch on one side can go over as a block. Smallest patches first.
size_t mergePatches(std::vector<int>& label, const std::vector<std::vector<Candidate>>& candidates,
                    const std::vector<std::array<int, 3>>& neighbours, float smoothness) {
  auto patches = labelPatches(label, neighbours);
  std::stable_sort(patches.begin(), patches.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
  std::vector<int> member(label.size(), -1);
  size_t moved = 0;
  for (size_t p = 0; p < patches.size(); ++p) {
    const std::vector<int>& faces = patches[p];
    const int from = label[faces.front()];
    if (from < 0) continue;
    for (int f : faces) member[f] = int(p);
    // Views across the patch's boundary, with the boundary edges each shares (a patch merged earlier may
    // now have this patch's view too: no seam there).
    std::vector<std::pair<int, int>> across;  // (view, edges)
    for (int f : faces)
      for (int g : neighbours[f]) {
        if (g < 0 || member[g] == int(p) || label[g] < 0) continue;
        auto it = std::find_if(across.begin(), across.end(), [&](const auto& e) { return e.first == label[g]; });
        if (it == across.end()) across.emplace_back(label[g], 1);
        else ++it->second;
      }
    int sameView = 0;
    for (const auto& [view, shared] : across)
      if (view == from) sameView = shared;
    int bestView = from;
    float bestDelta = -1e-6f;
    for (const auto& [view, shared] : across) {
      if (view == from) continue;
      float delta = 0;
      for (int f : faces) delta += dataCost(candidates[f], view) - dataCost(candidates[f], from);
      // Seams: the boundary edges to `view` stop being seams, those to `from` become seams.
      delta += smoothness * float(sameView - shared);
      if (delta < bestDelta) bestDelta = delta, bestView = view;
    }
    for (int f : faces) member[f] = -1;
    if (bestView != from) {
      for (int f : faces) label[f] = bestView;
      ++moved;
    }
  }
  return moved;
}

}  // namespace

std::vector<int> labelFaces(const std::vector<std::vector<Candidate>>& candidates, const std::vector<std::array<int, 3>>& neighbours,
                            const LabelOptions& o) {
  std::vector<int> label(candidates.size(), -1);
  for (size_t fi = 0; fi < candidates.size(); ++fi)
    if (!candidates[fi].empty()) label[fi] = candidates[fi].front().view;
  for (int sweep = 0; sweep < o.maxSweeps; ++sweep) {
    size_t changed = 0;
    for (size_t fi = 0; fi < candidates.size(); ++fi) {
      const auto& cands = candidates[fi];
      if (cands.size() < 2) continue;
      const float best = cands.front().score;
      int chosen = label[fi];
      float chosenCost = 0;
      bool first = true;
      for (const Candidate& c : cands) {
        float cost = 1.f - c.score / best;
        for (int n : neighbours[fi])
          if (n >= 0 && label[n] >= 0 && label[n] != c.view) cost += o.smoothness;
        // Ties keep the current view, so the sweeps settle.
        if (first || cost < chosenCost - 1e-6f || (cost <= chosenCost + 1e-6f && c.view == label[fi])) {
          chosen = c.view;
          chosenCost = cost;
          first = false;
        }
      }
      if (chosen != label[fi]) label[fi] = chosen, ++changed;
    }
    if (changed == 0) break;
  }
  if (o.smoothness > 0)
    for (int round = 0; round < o.maxSweeps; ++round)
      if (mergePatches(label, candidates, neighbours, o.smoothness) == 0) break;
  return label;
}

std::vector<std::vector<int>> labelPatches(const std::vector<int>& labels, const std::vector<std::array<int, 3>>& neighbours) {
  std::vector<std::vector<int>> patches;
  std::vector<char> done(labels.size(), 0);
  std::vector<int> stack;
  for (size_t seed = 0; seed < labels.size(); ++seed) {
    if (done[seed] || labels[seed] < 0) continue;
    std::vector<int> patch;
    stack.assign(1, int(seed));
    done[seed] = 1;
    while (!stack.empty()) {
      const int f = stack.back();
      stack.pop_back();
      patch.push_back(f);
      for (int n : neighbours[f])
        if (n >= 0 && !done[n] && labels[n] == labels[seed]) done[n] = 1, stack.push_back(n);
    }
    std::sort(patch.begin(), patch.end());
    patches.push_back(std::move(patch));
  }
  return patches;
}

}  // namespace sr
