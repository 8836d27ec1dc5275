#include "stereo/source_views.h"

#include <algorithm>
#include <map>

namespace sr::stereo {

std::vector<SourceViews> chooseSourceViews(const sr::Model& model, const std::vector<const sr::Image*>& images, const std::vector<View>& views, int wanted) {
  std::map<int64_t, std::vector<int>> seenBy;  // sparse point → views
  for (size_t k = 0; k < images.size(); k++)
    for (int64_t id : images[k]->point3d_ids)
      if (id >= 0) seenBy[id].push_back(int(k));
  std::map<int64_t, Eigen::Vector3f> pointById;
  for (const auto& p : model.points) pointById[p.id] = p.xyz.cast<float>();

  std::vector<SourceViews> chosen(images.size());
  for (size_t k = 0; k < images.size(); k++) {
    std::map<int, int> shared;
    std::vector<float> depths;
    for (int64_t id : images[k]->point3d_ids) {
      if (id < 0 || !seenBy.count(id)) continue;
      for (int other : seenBy[id])
        if (other != int(k)) shared[other]++;
      const Eigen::Vector3f pc = views[k].R * pointById[id] + views[k].t;
      if (pc.z() > 0) depths.push_back(pc.z());
    }
    std::vector<std::pair<int, int>> ranked(shared.begin(), shared.end());
    std::sort(ranked.begin(), ranked.end(), [](auto a, auto b) { return a.second > b.second || (a.second == b.second && a.first < b.first); });
    const Eigen::Vector3f c = views[k].center();
    float median = 1.f;
    if (!depths.empty()) {
      std::sort(depths.begin(), depths.end());
      median = depths[depths.size() / 2];
      chosen[k].minDepth = 0.8f * depths[size_t(0.02 * (depths.size() - 1))];
      chosen[k].maxDepth = 1.25f * depths[size_t(0.98 * (depths.size() - 1))];
    }
    for (const auto& [other, count] : ranked) {
      if (int(chosen[k].sources.size()) >= wanted) break;
      // A baseline of at least ~1.5° seen from the median depth: too close a view measures nothing.
      if ((views[other].center() - c).norm() < 0.025f * median) continue;
      chosen[k].sources.push_back(other);
    }
  }
  return chosen;
}

}  // namespace sr::stereo
