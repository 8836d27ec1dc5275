// The CPU trainer's run (sr-train's work, issue 39 item 6): options with Check(), and trainSplat, which loads a
// COLMAP dataset (undistorted pinhole images), trains a gaussian splat within a wall-clock budget (resuming from
// a checkpoint when told to), crops it to the region of interest and scores it on its validation and training
// views. docs/scan-worker.md ("The CPU trainer") explains the options.
#pragma once
#include <string>

#include "train/training.h"

namespace sr::train {

struct TrainerOptions {
  std::string imagesDir, sparseDir;  // the dataset (undistorted images, COLMAP model)
  std::string initPath;              // points (.ply) the gaussians start from
  std::string checkpointPath;        // written every checkpointSeconds; empty: none
  bool resume = false;               // start from checkpointPath when it is there and readable
  std::string holdoutPath;           // names of test views, never read
  std::string validationPath;        // names of validation views: scored, never trained on
  std::string roiPath;               // region of interest (JSON) the published splat is cropped to; empty: none
  std::string rendersDir;            // where the scored renders are saved; empty: nowhere
  double minutes = 10;               // the wall-clock budget (a ceiling when stopOnPlateau)
  double checkpointSeconds = 120;
  int maxIterations = 30000;
  int longSide = 480;                // training resolution: the images' long side, in pixels
  int seed = 1;
  int maxShDegree = 3;               // spherical harmonics: one degree more every shEvery of the budget, up to this
  double shEvery = 0.1;
  float ssimWeight = 0.2f;           // loss (1 − λ)·L1 + λ·D-SSIM (3DGS: λ = 0.2)
  // Coarse-to-fine: the first coarseUntil of the budget trains on half-resolution images (a quarter of the pixels
  // per iteration, so several times the iterations while the shape settles).
  double coarseUntil = 0.25;
  // Densification (clone, split, prune) runs in the first 70 % of the budget; opacity resets (3DGS) fall every
  // opacityResetEvery of the budget inside that window (0: none).
  double opacityResetEvery = 0;
  float background[3] = {0, 0, 0};   // what the viewer shows behind the splat: what differs from it must be splats
  int skySplats = 2000;              // a shell of about this many far gaussians in the directions the cameras see
  bool stopOnPlateau = true;         // stop when the validation views stop improving (PlateauRule)
  int scoredTrainViews = 2;          // training views scored at the end at the dataset's size (the training's log)

  // Throws std::invalid_argument naming the first option out of range.
  void Check() const;
};

struct TrainerResult {
  Gaussians splats;             // cropped to the region of interest, sky splats kept
  int iterations = 0, resumedFrom = 0, opacityResets = 0;
  double seconds = 0;           // training time, a resumed run's earlier time included
  size_t cropped = 0;           // gaussians removed: nearer than a camera's near plane in its picture, or outside the region of interest
  std::string stopped;          // "plateau", "budget" or "iterations"
  double trainPsnr = 0;         // of the last scored training iteration, at training resolution
  double validationPsnr = -1;   // mean over the validation views at the dataset's size; -1 when none was scored
  double trainViewsPsnr = -1;
  size_t validationViews = 0;
  std::string validationViewsJson, trainViewsJson;  // [{"name":…,"psnr":…},…] without the brackets
};

TrainerResult trainSplat(const TrainerOptions& options);

// "1e1f22" (or "#1e1f22") → RGB in 0..1; throws std::invalid_argument otherwise.
void parseHexColor(const std::string& text, float rgb[3]);

}  // namespace sr::train
