// The training side of sr-train: Adam with per-parameter learning rates, densification (clone/split by
// view-space gradient) and pruning, the L1 loss, and the files it reads and writes (points, 3DGS .ply,
// checkpoints, the region to keep).
#pragma once
#include <random>
#include <string>
#include <vector>

#include "train/raster.h"

namespace sr::train {

struct Adam {
  Gaussians m, v;
  int step = 0;
  void resize(size_t n);
};

struct LearningRates {
  float mean, logScale, quat, opacity, color, sh;  // sh: the coefficients above degree 0 (3DGS: colour / 20)
};

// One Adam step over every parameter block (beta1 0.9, beta2 0.999, eps 1e-15 as 3DGS).
void adamStep(Gaussians& params, const Gaussians& grads, Adam& state, const LearningRates& lr);

// Per-gaussian densification statistics: summed view-space gradient (NDC units) and times seen.
struct DensifyStats {
  std::vector<float> gradSum;
  std::vector<int> seen;
  void resize(size_t n) { gradSum.assign(n, 0.f), seen.assign(n, 0); }
};

struct DensifyOptions {
  float gradThreshold = 0.0002f;  // mean NDC-space gradient that marks under-reconstruction
  float sceneExtent = 1.f;
  // Sizes are judged against max(sceneExtent, the gaussian's distance from this centre): a gaussian far out (a
  // distant wall, the sky splats) may be as large as its distance makes it look small.
  float center[3] = {0, 0, 0};
  // Gaussians farther than this from the centre (the sky splats) are never cloned or split: their number stays
  // what it started at (viewers frame a splat by percentiles of its centres, and a sky that grew past a few
  // percent of the splats would pull the framing out to it).
  float densifyWithin = 1e30f;
  float percentDense = 0.01f;     // clone below this share of the extent, split above
  float minOpacity = 0.005f;
  size_t maxGaussians = 400000;
};

struct DensifyResult {
  size_t cloned = 0, split = 0, pruned = 0;
};

// Clones small and splits large gaussians with high gradients, then prunes transparent and huge ones;
// Adam's state follows each gaussian (new ones start at zero).
DensifyResult densifyAndPrune(Gaussians& g, Adam& adam, const DensifyStats& stats, const DensifyOptions& options, std::mt19937& rng);

// Opacity reset (3DGS): every opacity above `ceiling` (after the sigmoid) is lowered to it and the opacity
// logits' Adam moments are zeroed, so floaters that densification grew must earn their opacity back or be
// pruned as transparent. Opacities already below the ceiling and every other parameter are left alone.
void resetOpacity(Gaussians& g, Adam& adam, float ceiling = 0.01f);

// When the resets fall, in fractions of the budget: at every, 2·every, 3·every, … strictly before
// densification stops (a reset after it would leave floaters transparent but never pruned). every = 0: none.
struct OpacityResetSchedule {
  double every = 0;
  double densifyUntil = 0.7;
  // How many resets are due by `fraction` of the budget (the training loop resets when this passes the
  // count already done, which the checkpoint carries, so a resumed run neither repeats nor skips one).
  int dueBy(double fraction) const;
};

// Training stops when the validation views stop improving (issue 34 item 2). The views are scored every
// `checkEvery` of the budget; from `after` of the budget on, training has reached its plateau when the best score of
// the last `window` of the budget is less than `gain` dB above the best score before that window.
struct PlateauRule {
  double checkEvery = 0.04;
  double after = 0.35;
  double window = 0.2;
  double gain = 0.05;
  struct Check {
    double fraction, psnr;
  };
  bool reached(const std::vector<Check>& checks) const;
};

// The value at `fraction` (0..1) of the sorted values (nth_element on a copy); 0 for none.
float percentile(std::vector<float> values, double fraction);

// A camera's near plane from the depths (camera z) of the sparse points it observed: half the 2nd-percentile
// depth of those in front of it; `fallback` when it observed fewer than 10.
float nearPlaneFromDepths(std::vector<float> depths, float fallback);

// keep[i] is 0 for a gaussian whose centre some view's camera sees in its picture nearer than half its near plane (a
// quarter of the depth of the nearest 2 % of what it measured), in a colour unlike the photo's there (mean difference
// over the channels above `tolerance`): that camera looked through it at the scene behind, and training never drew
// it there, so it was never corrected; a viewer, whose near plane is far closer, would show it over that view
// (the CI scan's stray fused point beside a camera). What lies nearer than the near plane but not that near, or
// shows the photo's own colour, stays: surfaces other cameras trained — in a courtyard (castle-P30) every camera has
// ground that others see nearer than its near plane, and removing all of it, as this did before (14,907 gaussians),
// cost the validation views 2.2 dB; this way 446 go and the views score as with none removed (27.30 dB).
constexpr float kLookedThroughShare = 0.5f;
constexpr float kNearColourTolerance = 0.1f;
std::vector<char> clearOfNearPlanes(const Gaussians& g, const std::vector<PhotoView>& views, float tolerance = kNearColourTolerance);

// Appends every gaussian of `from` to `to` (their SH degree must agree or `from` be degree 0).
void appendAll(Gaussians& to, const Gaussians& from);

// Removes the gaussians for which keep[i] is false (parameters and Adam state together).
void keepOnly(Gaussians& g, Adam* adam, const std::vector<char>& keep);

// L1 loss between two RGB images (mean over pixels and channels) and its gradient.
float l1Loss(const std::vector<float>& rendered, const std::vector<float>& target, std::vector<float>& grad);
double psnr(const std::vector<float>& a, const std::vector<float>& b);

// Points for initialisation: x y z and, when present, red green blue (uchar) from a binary little-endian .ply.
struct PointCloud {
  std::vector<float> xyz;
  std::vector<float> rgb;  // 0–1
};
PointCloud readPointsPly(const std::string& path);
// One gaussian per point: isotropic, scaled by the mean distance to its 3 nearest neighbours.
Gaussians gaussiansFromPoints(const PointCloud& points, float initialOpacity);

// The standard 3DGS binary little-endian .ply (x y z nx ny nz f_dc_0..2 f_rest_* opacity scale_0..2 rot_0..3);
// f_rest holds the coefficients of the degree in use, channel-major (all red ones, then green, then blue), as 3DGS.
void writeSplatPly(const Gaussians& g, const std::string& path);

struct Checkpoint {
  int iteration = 0;
  int opacityResets = 0;  // resets done so far (OpacityResetSchedule)
  double seconds = 0;
  float background[3] = {0, 0, 0};
  Gaussians params;
  Adam adam;
  std::string rng;
};
void writeCheckpoint(const Checkpoint& c, const std::string& path);  // atomic: temporary file, then rename
Checkpoint readCheckpoint(const std::string& path);

// The region of interest the dense stage found (dense/roi.json, app/worker/dense-points.ts): a box in the upright
// model frame, {"center":[x,y,z],"radius":r,"axes":[[…],[…],[…]],"min":[…],"max":[…]} — a point p is inside when
// min[k] <= p · axes[k] <= max[k] for each k (issue 38 item 5) — or, in a file written before the box, the sphere
// {"center":[x,y,z],"radius":r} alone.
struct RegionOfInterest {
  float center[3] = {0, 0, 0};
  float radius = 0;
  bool box = false;  // false: only the sphere (center, radius) is known
  float axes[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  float min[3] = {0, 0, 0}, max[3] = {0, 0, 0};
  bool contains(const float p[3]) const;
};
// False when the text is not such a region (a key or a number missing, radius not positive, min above max).
bool parseRoi(const std::string& json, RegionOfInterest& roi);
bool readRoi(const std::string& path, RegionOfInterest& roi);
// keep[i] is 1 when gaussian i's centre lies inside the region (for keepOnly).
std::vector<char> insideRoi(const Gaussians& g, const RegionOfInterest& roi);

}  // namespace sr::train
