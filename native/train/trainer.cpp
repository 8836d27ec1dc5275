#include "train/trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "lib/colmap_io.h"
#include "lib/image.h"
#include "lib/name_list.h"
#include "lib/progress.h"
#include "train/sky.h"
#include "train/ssim.h"

namespace fs = std::filesystem;

namespace sr::train {
namespace {

struct View {
  std::string name;
  Camera camera;             // at training resolution
  Camera full;               // at the dataset image's size
  std::vector<float> pixels;  // training resolution, RGB
  Camera coarse;             // at half the training resolution (coarse-to-fine)
  std::vector<float> coarsePixels;
};


Camera cameraOf(const sr::Image& image, const sr::Camera& c, float scale) {
  Camera out{};
  const Eigen::Matrix3d R = image.R();
  for (int r = 0; r < 3; r++) {
    for (int k = 0; k < 3; k++) out.R[r * 3 + k] = float(R(r, k));
    out.t[r] = float(image.t[r]);
  }
  out.fx = float(c.fx() * scale), out.fy = float(c.fy() * scale), out.cx = float(c.cx() * scale), out.cy = float(c.cy() * scale);
  out.width = std::max(1, int(std::lround(c.width * scale))), out.height = std::max(1, int(std::lround(c.height * scale)));
  return out;
}

std::vector<float> toVector(const sr::ImageRGB& image) { return image.data; }


std::string baseName(const std::string& name) {
  const auto dot = name.find_last_of('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

// Mean PSNR of renders of `views` (at the dataset's image size) against their photos, and each view's figure.
// With `rendersDir`, each render is also saved there as <name>.png (to look at what was scored).
double scoreViews(const Gaussians& g, const std::vector<View>& views, const std::string& imagesDir, const float background[3], std::ostringstream& each,
                  const std::string& rendersDir) {
  double sum = 0;
  int scored = 0;
  for (const auto& view : views) {
    const std::string photoPath = imagesDir + "/" + view.name;
    if (!fs::exists(photoPath)) continue;
    const sr::ImageRGB photo = sr::loadImage(photoPath);
    if (photo.width != view.full.width || photo.height != view.full.height) continue;
    Render r;
    render(g, view.full, background, r);
    if (!rendersDir.empty()) {
      sr::ImageRGB out(view.full.width, view.full.height);
      out.data = r.rgb;
      fs::create_directories(rendersDir);
      sr::saveImage(out, rendersDir + "/" + baseName(view.name) + ".png");
    }
    const double value = psnr(r.rgb, photo.data);
    each << (scored ? "," : "") << "{\"name\":\"" << view.name << "\",\"psnr\":" << value << "}";
    sum += value, scored++;
  }
  return scored ? sum / scored : -1;
}

// Gradients back to zero for n gaussians. The 45 SH coefficients per gaussian (three quarters of the floats) only
// once they are in use: at degree 0 neither the backward pass nor Adam touches them.
void zero(Gaussians& g, size_t n, int shDegree) {
  g.resize(n);
  std::fill(g.mean.begin(), g.mean.end(), 0.f), std::fill(g.logScale.begin(), g.logScale.end(), 0.f);
  std::fill(g.quat.begin(), g.quat.end(), 0.f), std::fill(g.opacity.begin(), g.opacity.end(), 0.f), std::fill(g.color.begin(), g.color.end(), 0.f);
  if (shDegree > 0) std::fill(g.sh.begin(), g.sh.end(), 0.f);
}

}  // namespace

void parseHexColor(const std::string& text, float rgb[3]) {
  const std::string hex = !text.empty() && text[0] == '#' ? text.substr(1) : text;
  if (hex.size() != 6 || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) throw std::invalid_argument("--background must be a colour like 1e1f22");
  for (int k = 0; k < 3; k++) rgb[k] = float(std::stoi(hex.substr(2 * k, 2), nullptr, 16)) / 255.f;
}

void TrainerOptions::Check() const {
  if (imagesDir.empty() || sparseDir.empty() || initPath.empty()) throw std::invalid_argument("--images, --sparse and --init are required");
  if (!(minutes > 0) || maxIterations < 1 || longSide < 32) throw std::invalid_argument("--minutes, --max-iterations and --train-long-side must be positive");
  if (!(ssimWeight >= 0.f && ssimWeight <= 1.f)) throw std::invalid_argument("--ssim-weight must be between 0 and 1");
  if (!(opacityResetEvery >= 0 && opacityResetEvery <= 1)) throw std::invalid_argument("--opacity-reset-every must be between 0 and 1");
  if (!(coarseUntil >= 0 && coarseUntil <= 1)) throw std::invalid_argument("--coarse-until must be between 0 and 1");
  if (maxShDegree < 0 || maxShDegree > kMaxShDegree) throw std::invalid_argument("--sh-degree must be between 0 and 3");
  if (skySplats < 0 || scoredTrainViews < 0) throw std::invalid_argument("--sky-splats and --score-train-views must not be negative");
  if (!(checkpointSeconds > 0)) throw std::invalid_argument("--checkpoint-seconds must be positive");
}

TrainerResult trainSplat(const TrainerOptions& o) {
  o.Check();
  OpacityResetSchedule resets;
  resets.densifyUntil = 0.7;
  resets.every = o.opacityResetEvery;
  const auto started = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };

  // The dataset: training views at the training resolution; validation views kept out of training (scored for the
  // plateau at the training resolution and at the end at full size); test views (--holdout) never read at all.
  const sr::Model model = sr::readModel(o.sparseDir);
  const std::set<std::string> holdout = sr::readNameList(o.holdoutPath);
  const std::set<std::string> validation = sr::readNameList(o.validationPath);
  std::vector<View> train, held;
  for (const auto& image : model.images) {
    if (holdout.count(image.name)) continue;
    const auto& cam = model.cameraOf(image);
    const float scale = std::min(1.f, float(o.longSide) / float(std::max(cam.width, cam.height)));
    View view{image.name, cameraOf(image, cam, scale), cameraOf(image, cam, 1.f), {}, {}, {}};
    const sr::ImageRGB photo = sr::loadImage(o.imagesDir + "/" + image.name);
    view.pixels = toVector(sr::resizeImage(photo, view.camera.width, view.camera.height));
    if (validation.count(image.name)) {  // scored at the training resolution for the plateau, never trained on
      held.push_back(std::move(view));
      continue;
    }
    if (o.coarseUntil > 0) {
      view.coarse = scaledCamera(view.camera, 0.5f);
      view.coarsePixels = toVector(sr::resizeImage(photo, view.coarse.width, view.coarse.height));
    }
    train.push_back(std::move(view));
  }
  if (train.empty()) throw std::runtime_error("no training images");
  // Scene extent from the camera centres (as 3DGS): learning rates and densification scale with it.
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  for (const auto& image : model.images) centroid += image.center();
  centroid /= double(model.images.size());
  double extent = 0;
  for (const auto& image : model.images) extent = std::max(extent, (image.center() - centroid).norm());
  extent = std::max(1e-3, 1.1 * extent);
  // Near planes from what each camera measured (issue 38 item 5): half the depth of the nearest of the sparse
  // points it saw (2nd percentile), so stray points next to a camera are not drawn over its view, and a camera
  // close to a wall (a facade walk) still sees the wall. Cameras without points: a tenth of the distance to the
  // scene's centre, as before.
  std::unordered_map<int64_t, Eigen::Vector3d> pointById;
  for (const auto& point : model.points) pointById.emplace(point.id, point.xyz);
  std::map<std::string, float> nearOf;
  for (const auto& image : model.images) {
    std::vector<float> depths;
    for (const int64_t id : image.point3d_ids) {
      const auto found = id < 0 ? pointById.end() : pointById.find(id);
      if (found != pointById.end()) depths.push_back(float(image.toCamera(found->second).z()));
    }
    nearOf[image.name] = nearPlaneFromDepths(depths, 0.1f * float((image.center() - centroid).norm()));
  }
  for (auto& v : train) v.camera.near = v.full.near = v.coarse.near = nearOf.at(v.name);
  for (auto& v : held) v.camera.near = v.full.near = nearOf.at(v.name);

  Checkpoint state;
  std::mt19937 rng{uint32_t(o.seed)};
  double secondsBefore = 0;
  int resumedFrom = 0;
  bool resumed = false;
  if (o.resume && !o.checkpointPath.empty() && fs::exists(o.checkpointPath)) {
    try {
      state = readCheckpoint(o.checkpointPath);
      resumed = true;
    } catch (const std::exception& refused) {
      std::printf("checkpoint refused, starting over: %s\n", refused.what());
    }
  }
  if (resumed) {
    std::istringstream(state.rng) >> rng;
    secondsBefore = state.seconds;
    resumedFrom = state.iteration;
    std::printf("resumed from iteration %d (%zu gaussians)\n", state.iteration, state.params.size());
  }
  const PointCloud initPoints = readPointsPly(o.initPath);
  const float centroidF[3] = {float(centroid.x()), float(centroid.y()), float(centroid.z())};
  const SkyShell sky = skyShellAround(centroidF, float(extent), initPoints.xyz);
  size_t skySplatCount = 0;
  if (!resumed) {
    state.params = gaussiansFromPoints(initPoints, 0.1f);
    std::vector<PhotoView> skyViews;
    for (const auto& v : train) skyViews.push_back({&v.camera, &v.pixels});
    // At most 1.5 % of the scene's gaussians: viewers frame a splat by the 2nd–98th percentiles of its centres.
    const size_t skyCount = std::min(size_t(o.skySplats), std::max<size_t>(std::min<size_t>(200, size_t(o.skySplats)), state.params.size() * 3 / 200));
    const Gaussians skyGaussians = skySplats(sky, skyViews, skyCount);
    skySplatCount = skyGaussians.size();
    appendAll(state.params, skyGaussians);
    state.adam.resize(state.params.size());
    for (int ch = 0; ch < 3; ch++) state.background[ch] = o.background[ch];
  }
  if (state.params.size() == 0) throw std::runtime_error("no points to start from");
  std::printf("training %zu views (%zu for validation, %zu test views unread) at %dx%d from %zu gaussians (%zu sky splats at radius %.3g), budget %.1f min\n",
              train.size(), held.size(), holdout.size(), train[0].camera.width, train[0].camera.height, state.params.size(), skySplatCount, sky.radius, o.minutes);

  const double budget = o.minutes * 60.0;
  DensifyStats stats;
  stats.resize(state.params.size());
  DensifyOptions densify;
  densify.sceneExtent = float(extent);
  for (int k = 0; k < 3; k++) densify.center[k] = centroidF[k];
  densify.densifyWithin = sky.innerRadius();
  Gradients grads;
  std::vector<float> dL;
  double lastCheckpoint = elapsed();
  int iteration = state.iteration;
  float lastLoss = 0;
  double lastPsnr = 0;
  std::uniform_int_distribution<size_t> pick(0, train.size() - 1);
  bool wasCoarse = false;
  // Why training ended: "budget" (the time ceiling), "iterations" (--max-iterations) or "plateau".
  std::string stopped = "budget";
  const PlateauRule plateau;
  std::vector<PlateauRule::Check> checks;  // (a resumed run starts its history again)
  double nextCheck = 0;                    // at the first iteration, then every checkEvery of the budget
  Render r;                                // one iteration's render, its buffers reused by the next
  for (;; iteration++) {
    const double spent = secondsBefore + elapsed();
    const double fraction = std::max(spent / budget, double(iteration) / o.maxIterations);
    if (fraction >= 1.0) {
      stopped = spent / budget >= 1.0 ? "budget" : "iterations";
      break;
    }
    if (o.stopOnPlateau && !held.empty() && fraction >= nextCheck) {
      nextCheck = (std::floor(fraction / plateau.checkEvery) + 1) * plateau.checkEvery;
      double sum = 0;
      for (const View& v : held) {
        Render check;
        render(state.params, v.camera, state.background, check);
        sum += psnr(check.rgb, v.pixels);
      }
      checks.push_back({fraction, sum / double(held.size())});
      std::printf("validation %.2f dB at iteration %d (%.0f%% of the budget)\n", checks.back().psnr, iteration, 100 * fraction);
      if (plateau.reached(checks)) {
        stopped = "plateau";
        break;
      }
    }
    const int shDegree = o.shEvery > 0 ? std::min(o.maxShDegree, int(fraction / o.shEvery)) : o.maxShDegree;
    if (shDegree > state.params.shDegree) {
      state.params.shDegree = shDegree;
      std::printf("SH degree %d at iteration %d\n", shDegree, iteration);
    }
    const View& view = train[pick(rng)];
    const bool coarse = fraction < o.coarseUntil;
    if (coarse != wasCoarse) {
      std::printf("%s resolution at iteration %d\n", coarse ? "half" : "full", iteration);
      wasCoarse = coarse;
    }
    const Camera& camera = coarse ? view.coarse : view.camera;
    const std::vector<float>& target = coarse ? view.coarsePixels : view.pixels;
    render(state.params, camera, state.background, r);
    lastLoss = l1SsimLoss(r.rgb, target, camera.width, camera.height, o.ssimWeight, dL);
    if (iteration % 10 == 0) lastPsnr = psnr(r.rgb, target);
    zero(grads.g, state.params.size(), state.params.shDegree);
    grads.meanScreen.assign(state.params.size(), 0.f);
    backward(state.params, camera, state.background, r, dL, grads);
    // Learning rates: means decay exponentially to 1 % over the budget (3DGS), scaled by the extent.
    LearningRates lr{float(1.6e-4 * extent * std::pow(0.01, fraction)), 5e-3f, 1e-3f, 2.5e-2f, 2.5e-3f, 2.5e-3f / 20.f};
    adamStep(state.params, grads.g, state.adam, lr);
    for (size_t i = 0; i < state.params.size(); i++)
      if (r.proj.radius[i]) stats.gradSum[i] += grads.meanScreen[i] * 0.5f * float(camera.width), stats.seen[i]++;
    // Densify often while the budget is young (budgets here are minutes, not hours as on a GPU).
    if (iteration > 0 && iteration % 50 == 0 && fraction < resets.densifyUntil) {
      const auto d = densifyAndPrune(state.params, state.adam, stats, densify, rng);
      stats.resize(state.params.size());
      std::printf("densify at %d: +%zu cloned, %zu split, -%zu pruned → %zu gaussians\n", iteration, d.cloned, d.split, d.pruned, state.params.size());
    }
    // The count done travels in the checkpoint: a resumed run resets only at the thresholds it has not passed.
    if (const int due = resets.dueBy(fraction); due > state.opacityResets) {
      resetOpacity(state.params, state.adam);
      state.opacityResets = due;
      std::printf("opacity reset %d at iteration %d\n", due, iteration);
    }
    if (iteration % 10 == 0) {
      char detail[160];
      std::snprintf(detail, sizeof detail, "iteration %d loss %.4f psnr %.2f gaussians %zu left %.0fs", iteration, lastLoss, lastPsnr, state.params.size(),
                    std::max(0.0, budget - spent));
      sr::reportProgress(0.95 * fraction, detail);
    }
    if (!o.checkpointPath.empty() && elapsed() - lastCheckpoint >= o.checkpointSeconds) {
      state.iteration = iteration + 1;
      state.seconds = secondsBefore + elapsed();
      std::ostringstream r2;
      r2 << rng;
      state.rng = r2.str();
      writeCheckpoint(state, o.checkpointPath);
      lastCheckpoint = elapsed();
      std::printf("checkpoint %d\n", state.iteration);
      std::fflush(stdout);
    }
  }

  // No gaussian a camera looked through: training never drew what lies nearer than a camera's near plane, so a
  // floater well inside it (a stray fused point beside a camera) was never corrected, and viewers would see it
  // (clearOfNearPlanes says which go; the photos are at the training size).
  std::vector<PhotoView> photos;
  for (const auto* views : {&train, &held})
    for (const View& v : *views) photos.push_back({&v.camera, &v.pixels});
  const std::vector<char> clear = clearOfNearPlanes(state.params, photos);
  const size_t nearRemoved = size_t(std::count(clear.begin(), clear.end(), 0));
  if (nearRemoved) keepOnly(state.params, nullptr, clear);
  std::printf("removed %zu gaussians a camera looked through\n", nearRemoved);
  // The published splat keeps the region of interest, and the sky splats beyond it.
  RegionOfInterest roi;
  size_t cropped = nearRemoved;
  if (!o.roiPath.empty() && readRoi(o.roiPath, roi)) {
    std::vector<char> keep = insideRoi(state.params, roi);
    if (o.skySplats > 0)
      for (size_t i = 0; i < keep.size(); i++) keep[i] = keep[i] || sky.contains(&state.params.mean[3 * i]);
    cropped += size_t(std::count(keep.begin(), keep.end(), 0));
    keepOnly(state.params, nullptr, keep);
  }
  // The training's own log, of the cropped splat: validation views and a few training views, rendered at the
  // dataset's size on the training background and scored against their photos.
  std::ostringstream validationEach, trainEach;
    const double validationPsnr = scoreViews(state.params, held, o.imagesDir, state.background, validationEach, o.rendersDir);
  std::vector<View> trainSample;
  for (int k = 0; k < o.scoredTrainViews && k < int(train.size()); k++) trainSample.push_back(train[size_t((k + 0.5) * double(train.size()) / o.scoredTrainViews)]);
  for (auto& v : trainSample) v.pixels.clear(), v.coarsePixels.clear();
  const double trainViewsPsnr = scoreViews(state.params, trainSample, o.imagesDir, state.background, trainEach, o.rendersDir);
  TrainerResult result;
  result.iterations = iteration, result.resumedFrom = resumedFrom, result.opacityResets = state.opacityResets;
  result.seconds = secondsBefore + elapsed();
  result.cropped = cropped, result.stopped = stopped, result.trainPsnr = lastPsnr;
  result.validationPsnr = validationPsnr, result.trainViewsPsnr = trainViewsPsnr, result.validationViews = held.size();
  result.validationViewsJson = validationEach.str(), result.trainViewsJson = trainEach.str();
  result.splats = std::move(state.params);
  return result;
}

}  // namespace sr::train
