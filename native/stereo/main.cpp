// sr-stereo: depth and normal maps for an undistorted COLMAP workspace (images/, sparse/), written in
// COLMAP's format under stereo/ so that `colmap stereo_fusion` fuses them into dense points. The run is
// computeDepthMaps (stereo/depth_maps.h); this main parses the flags into its options.
//   sr-stereo --workspace DIR [--skip FILE] [--size 320] [--sources 4] [--iterations 5] [--window 4]
//             [--best 2] [--consistent-views 1] [--threads N]
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <exception>

#include "lib/progress.h"
#include "stereo/depth_maps.h"

int main(int argc, char** argv) {
  try {
    const sr::Args args(argc, argv);
    sr::stereo::StereoOptions options;
    options.workspace = args.required("workspace");
    options.skipPath = args.str("skip");
    options.size = args.integer("size", options.size);
    options.sources = args.integer("sources", options.sources);
    options.consistentViews = args.integer("consistent-views", options.consistentViews);
    options.patchMatch.iterations = args.integer("iterations", options.patchMatch.iterations);
    options.patchMatch.windowRadius = args.integer("window", options.patchMatch.windowRadius);
    options.patchMatch.bestSources = args.integer("best", options.patchMatch.bestSources);
    if (args.has("threads")) omp_set_num_threads(std::max(1, args.integer("threads", 1)));
    const sr::stereo::DepthMapsResult result = sr::stereo::computeDepthMaps(options);
    std::printf("depth maps: %zu views at %dx%d, %.1f %% of pixels with a consistent depth\n", result.views, result.width, result.height,
                result.pixels ? 100.0 * result.keptPixels / result.pixels : 0.0);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "sr-stereo: %s\n", error.what());
    return 1;
  }
}
