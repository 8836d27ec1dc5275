#include "stereo/depth_maps.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "lib/colmap_io.h"
#include "lib/image.h"
#include "lib/name_list.h"
#include "lib/progress.h"
#include "stereo/source_views.h"

namespace fs = std::filesystem;

namespace sr::stereo {

void StereoOptions::Check() const {
  if (workspace.empty()) throw std::invalid_argument("--workspace is required");
  if (size < 32) throw std::invalid_argument("--size must be at least 32");
  if (sources < 1) throw std::invalid_argument("--sources must be at least 1");
  if (patchMatch.iterations < 1) throw std::invalid_argument("--iterations must be at least 1");
  if (patchMatch.windowRadius < 1 || patchMatch.windowRadius > 5) throw std::invalid_argument("--window must be between 1 and 5");
  if (patchMatch.bestSources < 1) throw std::invalid_argument("--best must be at least 1");
  if (consistentViews < 1) throw std::invalid_argument("--consistent-views must be at least 1");
  if (!(consistentDepth > 0) || !(consistentPixels > 0)) throw std::invalid_argument("the consistency tolerances must be positive");
}

DepthMapsResult computeDepthMaps(const StereoOptions& o) {
  o.Check();
  const sr::Model model = sr::readModel(o.workspace + "/sparse");
  const std::set<std::string> skip = sr::readNameList(o.skipPath);

  // Views at the stereo size; the held-out ones are never used, as reference or as source.
  std::vector<const sr::Image*> images;
  for (const auto& image : model.images)
    if (!skip.count(image.name)) images.push_back(&image);
  if (images.size() < 2) throw std::runtime_error("fewer than two views to match");
  std::vector<View> views(images.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (long k = 0; k < long(images.size()); k++) {
    const sr::Image& image = *images[k];
    const sr::Camera& cam = model.cameraOf(image);
    const float scale = std::min(1.f, float(o.size) / float(std::max(cam.width, cam.height)));
    View& v = views[k];
    v.width = std::max(8, int(std::lround(cam.width * scale))), v.height = std::max(8, int(std::lround(cam.height * scale)));
    v.gray = sr::toGray(sr::resizeImage(sr::loadImage(o.workspace + "/images/" + image.name), v.width, v.height));
    const float sx = float(v.width) / cam.width, sy = float(v.height) / cam.height;
    v.K << float(cam.fx()) * sx, 0, float(cam.cx()) * sx, 0, float(cam.fy()) * sy, float(cam.cy()) * sy, 0, 0, 1;
    v.R = image.R().cast<float>();
    v.t = image.t.cast<float>();
  }
  // Source views and depth ranges from the sparse model (stereo/source_views.h).
  const std::vector<SourceViews> chosen = chooseSourceViews(model, images, views, o.sources);

  std::vector<std::vector<float>> depths(images.size()), normals(images.size());
  size_t done = 0;
  for (size_t k = 0; k < images.size(); k++) {
    if (!chosen[k].measurable()) {
      depths[k].assign(size_t(views[k].width) * views[k].height, 0.f);
      normals[k].assign(size_t(3) * views[k].width * views[k].height, 0.f);
    } else {
      std::vector<const View*> src;
      for (int s : chosen[k].sources) src.push_back(&views[s]);
      Options perView = o.patchMatch;
      perView.seed = uint64_t(k) + 1;
      DepthNormal result = patchMatch(views[k], src, chosen[k].minDepth, chosen[k].maxDepth, perView);
      depths[k] = std::move(result.depth);
      normals[k] = std::move(result.normals);
    }
    done++;
    sr::reportProgress(0.85 * double(done) / images.size(), "depth map " + std::to_string(done) + "/" + std::to_string(images.size()));
  }
  // Geometric consistency: a depth stays when another view's depth map sees the same point.
  const std::vector<std::vector<float>> photometric = depths;
  fs::create_directories(o.workspace + "/stereo/depth_maps");
  fs::create_directories(o.workspace + "/stereo/normal_maps");
  std::ofstream fusion(o.workspace + "/stereo/fusion.cfg"), patchMatchConfig(o.workspace + "/stereo/patch-match.cfg");
  DepthMapsResult result;
  result.views = images.size();
  result.width = views[0].width, result.height = views[0].height;
  for (size_t k = 0; k < images.size(); k++) {
    std::vector<const View*> others;
    std::vector<const std::vector<float>*> otherDepths;
    for (int s : chosen[k].sources) others.push_back(&views[s]), otherDepths.push_back(&photometric[s]);
    keepConsistent(views[k], depths[k], others, otherDepths, o.consistentViews, o.consistentDepth, o.consistentPixels);
    const View& v = views[k];
    sr::FloatMap depth(v.width, v.height, 1), normal(v.width, v.height, 3);
    depth.data = depths[k];
    normal.data = normals[k];
    const size_t plane = depth.data.size();
    for (size_t i = 0; i < plane; i++) {
      if (!std::isfinite(depth.data[i]) || !std::isfinite(normal.data[i]) || !std::isfinite(normal.data[plane + i]) || !std::isfinite(normal.data[2 * plane + i]))
        depth.data[i] = 0;
      if (!(depth.data[i] > 0)) normal.data[i] = normal.data[plane + i] = normal.data[2 * plane + i] = 0;
      result.keptPixels += depth.data[i] > 0, result.pixels++;
    }
    const std::string name = images[k]->name;
    sr::writeFloatMap(depth, o.workspace + "/stereo/depth_maps/" + name + ".geometric.bin");
    sr::writeFloatMap(normal, o.workspace + "/stereo/normal_maps/" + name + ".geometric.bin");
    fusion << name << "\n";
    patchMatchConfig << name << "\n";
    for (size_t s = 0; s < chosen[k].sources.size(); s++) patchMatchConfig << (s ? ", " : "") << images[chosen[k].sources[s]]->name;
    patchMatchConfig << "\n";
    sr::reportProgress(0.85 + 0.15 * double(k + 1) / images.size(), "consistency " + std::to_string(k + 1) + "/" + std::to_string(images.size()));
  }
  return result;
}

}  // namespace sr::stereo
