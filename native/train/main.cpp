// sr-train: trains a gaussian splat on the CPU from a COLMAP dataset (undistorted pinhole images) within a
// wall-clock budget. Parses the flags, runs trainSplat (train/trainer.h), writes the splat and its metrics.
// See docs/scan-worker.md ("The CPU trainer") for the options and the progress protocol.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "lib/progress.h"
#include "train/trainer.h"

using namespace sr::train;

namespace {

TrainerOptions optionsFrom(const sr::Args& args) {
  TrainerOptions o;
  o.imagesDir = args.required("images"), o.sparseDir = args.required("sparse"), o.initPath = args.required("init");
  o.checkpointPath = args.str("checkpoint"), o.resume = args.integer("resume", 0) == 1;
  o.holdoutPath = args.str("holdout"), o.validationPath = args.str("validation"), o.roiPath = args.str("roi"), o.rendersDir = args.str("renders");
  o.minutes = args.num("minutes", o.minutes), o.checkpointSeconds = args.num("checkpoint-seconds", o.checkpointSeconds);
  o.maxIterations = args.integer("max-iterations", o.maxIterations), o.longSide = args.integer("train-long-side", o.longSide);
  o.seed = args.integer("seed", o.seed);
  o.maxShDegree = std::clamp(args.integer("sh-degree", o.maxShDegree), 0, kMaxShDegree), o.shEvery = args.num("sh-every", o.shEvery);
  o.ssimWeight = float(args.num("ssim-weight", o.ssimWeight));
  o.coarseUntil = std::clamp(args.num("coarse-until", o.coarseUntil), 0.0, 1.0);
  o.opacityResetEvery = args.num("opacity-reset-every", o.opacityResetEvery);
  if (args.has("background")) parseHexColor(args.str("background"), o.background);
  o.skySplats = std::max(0, args.integer("sky-splats", o.skySplats));
  o.stopOnPlateau = args.integer("plateau", 1) == 1;
  o.scoredTrainViews = std::max(0, args.integer("score-train-views", o.scoredTrainViews));
  return o;
}

void writeMetrics(const std::string& path, const TrainerResult& r) {
  std::ofstream m(path);
  m << "{\"iterations\":" << r.iterations << ",\"resumedFrom\":" << r.resumedFrom << ",\"seconds\":" << r.seconds << ",\"gaussians\":" << r.splats.size()
    << ",\"cropped\":" << r.cropped << ",\"stopped\":\"" << r.stopped << "\",\"opacityResets\":" << r.opacityResets << ",\"trainPsnr\":" << r.trainPsnr
    << ",\"validationPsnr\":" << r.validationPsnr << ",\"validationViews\":[" << r.validationViewsJson << "],\"trainViewsPsnr\":" << r.trainViewsPsnr
    << ",\"trainViews\":[" << r.trainViewsJson << "]}\n";
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const sr::Args args(argc, argv);
    const std::string output = args.required("output");
    const TrainerOptions options = optionsFrom(args);
    options.Check();
    if (args.has("threads")) omp_set_num_threads(std::max(1, args.integer("threads", 1)));
    const TrainerResult result = trainSplat(options);
    writeSplatPly(result.splats, output);
    if (args.has("metrics")) writeMetrics(args.str("metrics"), result);
    sr::reportProgress(1.0, "done");
    std::printf("trained %d iterations in %.1f s (stopped: %s): %zu gaussians (%zu cropped), validation PSNR %.2f dB on %zu views, training views %.2f dB\n",
                result.iterations, result.seconds, result.stopped.c_str(), result.splats.size(), result.cropped, result.validationPsnr, result.validationViews,
                result.trainViewsPsnr);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "sr-train: %s\n", error.what());
    return 1;
  }
}
