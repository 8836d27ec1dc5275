// sr-stereo: depth and normal maps for an undistorted COLMAP workspace (images/, sparse/), written in
// COLMAP's format under stereo/ so that `colmap stereo_fusion` fuses them into dense points.
// Depth and normals per view come from our PatchMatch (patch_match.h, decision 032); a geometric-consistency
// check between views keeps the depths that another view's map confirms (1 % depth, 2 px).
//   sr-stereo --workspace DIR [--skip FILE] [--size 320] [--sources 4] [--iterations 5] [--window 4]
//             [--best 2] [--consistent-views 1] [--threads N]
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "lib/colmap_io.h"
#include "lib/image.h"
#include "lib/name_list.h"
#include "lib/progress.h"
#include "stereo/patch_match.h"
#include "stereo/source_views.h"

namespace fs = std::filesystem;
using sr::stereo::View;

int main(int argc, char** argv) {
  try {
    const sr::Args args(argc, argv);
    const std::string workspace = args.required("workspace");
    const int size = args.integer("size", 320), sourcesWanted = args.integer("sources", 4);
    if (args.has("threads")) omp_set_num_threads(std::max(1, args.integer("threads", 1)));
    sr::stereo::Options options;
    options.iterations = args.integer("iterations", options.iterations);
    options.windowRadius = args.integer("window", options.windowRadius);
    options.bestSources = args.integer("best", options.bestSources);
    const int consistentViews = std::max(1, args.integer("consistent-views", 1));
    if (size < 32 || options.iterations < 1 || sourcesWanted < 1 || options.windowRadius < 1 || options.windowRadius > 5 || options.bestSources < 1)
      throw std::runtime_error("--size, --iterations, --window, --best or --sources is out of range");
    const sr::Model model = sr::readModel(workspace + "/sparse");
    const std::set<std::string> skip = sr::readNameList(args.str("skip"));

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
      const float scale = std::min(1.f, float(size) / float(std::max(cam.width, cam.height)));
      View& v = views[k];
      v.width = std::max(8, int(std::lround(cam.width * scale))), v.height = std::max(8, int(std::lround(cam.height * scale)));
      v.gray = sr::toGray(sr::resizeImage(sr::loadImage(workspace + "/images/" + image.name), v.width, v.height));
      const float sx = float(v.width) / cam.width, sy = float(v.height) / cam.height;
      v.K << float(cam.fx()) * sx, 0, float(cam.cx()) * sx, 0, float(cam.fy()) * sy, float(cam.cy()) * sy, 0, 0, 1;
      v.R = image.R().cast<float>();
      v.t = image.t.cast<float>();
    }
    // Source views and depth ranges from the sparse model (stereo/source_views.h).
    const std::vector<sr::stereo::SourceViews> chosen = sr::stereo::chooseSourceViews(model, images, views, sourcesWanted);

    std::vector<std::vector<float>> depths(images.size()), normals(images.size());
    size_t done = 0;
    for (size_t k = 0; k < images.size(); k++) {
      if (!chosen[k].measurable()) {
        depths[k].assign(size_t(views[k].width) * views[k].height, 0.f);
        normals[k].assign(size_t(3) * views[k].width * views[k].height, 0.f);
      } else {
        std::vector<const View*> src;
        for (int s : chosen[k].sources) src.push_back(&views[s]);
        sr::stereo::Options o = options;
        o.seed = uint64_t(k) + 1;
        sr::stereo::DepthNormal result = sr::stereo::patchMatch(views[k], src, chosen[k].minDepth, chosen[k].maxDepth, o);
        depths[k] = std::move(result.depth);
        normals[k] = std::move(result.normals);
      }
      done++;
      sr::reportProgress(0.85 * double(done) / images.size(), "depth map " + std::to_string(done) + "/" + std::to_string(images.size()));
    }
    // Geometric consistency: a depth stays when another view's depth map sees the same point.
    const std::vector<std::vector<float>> photometric = depths;
    fs::create_directories(workspace + "/stereo/depth_maps");
    fs::create_directories(workspace + "/stereo/normal_maps");
    std::ofstream fusion(workspace + "/stereo/fusion.cfg"), patchMatch(workspace + "/stereo/patch-match.cfg");
    size_t kept = 0, total = 0;
    for (size_t k = 0; k < images.size(); k++) {
      std::vector<const View*> others;
      std::vector<const std::vector<float>*> otherDepths;
      for (int s : chosen[k].sources) others.push_back(&views[s]), otherDepths.push_back(&photometric[s]);
      sr::stereo::keepConsistent(views[k], depths[k], others, otherDepths, consistentViews, 0.01f, 2.f);
      const View& v = views[k];
      sr::FloatMap depth(v.width, v.height, 1), normal(v.width, v.height, 3);
      depth.data = depths[k];
      normal.data = normals[k];
      const size_t plane = depth.data.size();
      for (size_t i = 0; i < plane; i++) {
        if (!std::isfinite(depth.data[i]) || !std::isfinite(normal.data[i]) || !std::isfinite(normal.data[plane + i]) || !std::isfinite(normal.data[2 * plane + i]))
          depth.data[i] = 0;
        if (!(depth.data[i] > 0)) normal.data[i] = normal.data[plane + i] = normal.data[2 * plane + i] = 0;
        kept += depth.data[i] > 0, total++;
      }
      const std::string name = images[k]->name;
      sr::writeFloatMap(depth, workspace + "/stereo/depth_maps/" + name + ".geometric.bin");
      sr::writeFloatMap(normal, workspace + "/stereo/normal_maps/" + name + ".geometric.bin");
      fusion << name << "\n";
      patchMatch << name << "\n";
      for (size_t s = 0; s < chosen[k].sources.size(); s++) patchMatch << (s ? ", " : "") << images[chosen[k].sources[s]]->name;
      patchMatch << "\n";
      sr::reportProgress(0.85 + 0.15 * double(k + 1) / images.size(), "consistency " + std::to_string(k + 1) + "/" + std::to_string(images.size()));
    }
    std::printf("depth maps: %zu views at %dx%d, %.1f %% of pixels with a consistent depth\n", images.size(), views[0].width, views[0].height,
                total ? 100.0 * kept / total : 0.0);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "sr-stereo: %s\n", error.what());
    return 1;
  }
}
