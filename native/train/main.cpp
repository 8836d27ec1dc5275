// sr-train: trains a gaussian splat on the CPU from a COLMAP dataset (undistorted pinhole images) within a
// wall-clock budget. See docs/scan-worker.md ("The CPU trainer") for the options and the progress protocol.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "lib/colmap_io.h"
#include "lib/image.h"
#include "lib/name_list.h"
#include "lib/progress.h"
#include "train/ssim.h"
#include "train/training.h"

namespace fs = std::filesystem;
using namespace sr::train;

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

void zero(Gaussians& g, size_t n) {
  g.resize(n);
  std::fill(g.mean.begin(), g.mean.end(), 0.f), std::fill(g.logScale.begin(), g.logScale.end(), 0.f);
  std::fill(g.quat.begin(), g.quat.end(), 0.f), std::fill(g.opacity.begin(), g.opacity.end(), 0.f), std::fill(g.color.begin(), g.color.end(), 0.f);
  std::fill(g.sh.begin(), g.sh.end(), 0.f);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const sr::Args args(argc, argv);
    const std::string imagesDir = args.required("images"), sparseDir = args.required("sparse"), output = args.required("output");
    const std::string initPath = args.required("init"), checkpointPath = args.str("checkpoint"), rendersDir = args.str("renders");
    const double minutes = args.num("minutes", 10), checkpointSeconds = args.num("checkpoint-seconds", 120);
    const int maxIterations = args.integer("max-iterations", 30000), longSide = args.integer("train-long-side", 480);
    const int seed = args.integer("seed", 1);
    // Spherical harmonics: one degree more every --sh-every of the budget, up to --sh-degree.
    const int maxShDegree = std::clamp(args.integer("sh-degree", 3), 0, kMaxShDegree);
    const double shEvery = args.num("sh-every", 0.1);
    // Loss: (1 − λ)·L1 + λ·D-SSIM (3DGS: λ = 0.2).
    const float ssimWeight = float(args.num("ssim-weight", 0.2));
    // Coarse-to-fine: the first --coarse-until of the budget trains on half-resolution images (a quarter of
    // the pixels per iteration, so several times the iterations while the shape settles).
    const double coarseUntil = std::clamp(args.num("coarse-until", 0.25), 0.0, 1.0);
    // Densification (clone, split, prune) runs in the first 70 % of the budget; opacity resets (3DGS) fall
    // every --opacity-reset-every of the budget inside that window (0: none).
    OpacityResetSchedule resets;
    resets.densifyUntil = 0.7;
    resets.every = args.num("opacity-reset-every", 0.0);
    if (!(ssimWeight >= 0.f && ssimWeight <= 1.f)) throw std::runtime_error("--ssim-weight must be between 0 and 1");
    if (!(resets.every >= 0 && resets.every <= 1)) throw std::runtime_error("--opacity-reset-every must be between 0 and 1");
    if (args.has("threads")) omp_set_num_threads(std::max(1, args.integer("threads", 1)));
    if (!(minutes > 0) || maxIterations < 1 || longSide < 32) throw std::runtime_error("--minutes, --max-iterations and --train-long-side must be positive");
    const auto started = std::chrono::steady_clock::now();
    const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };

    // The dataset: training views at the training resolution, held-out views kept for the end.
    const sr::Model model = sr::readModel(sparseDir);
    const std::set<std::string> holdout = sr::readNameList(args.str("holdout"));
    std::vector<View> train, held;
    for (const auto& image : model.images) {
      const auto& cam = model.cameraOf(image);
      const float scale = std::min(1.f, float(longSide) / float(std::max(cam.width, cam.height)));
      View view{image.name, cameraOf(image, cam, scale), cameraOf(image, cam, 1.f), {}, {}, {}};
      if (holdout.count(image.name)) {
        held.push_back(std::move(view));
        continue;
      }
      const sr::ImageRGB photo = sr::loadImage(imagesDir + "/" + image.name);
      view.pixels = toVector(sr::resizeImage(photo, view.camera.width, view.camera.height));
      if (coarseUntil > 0) {
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
    // Near plane: a tenth of the distance from the cameras to the scene's centre.
    float near = 0.f;
    for (const auto& image : model.images) near += float((image.center() - centroid).norm());
    near = 0.1f * near / float(model.images.size());
    for (auto& v : train) v.camera.near = near, v.full.near = near, v.coarse.near = near;
    for (auto& v : held) v.camera.near = near, v.full.near = near;

    Checkpoint state;
    std::mt19937 rng{uint32_t(seed)};
    double secondsBefore = 0;
    int resumedFrom = 0;
    bool resumed = false;
    if (args.integer("resume", 0) == 1 && !checkpointPath.empty() && fs::exists(checkpointPath)) {
      try {
        state = readCheckpoint(checkpointPath);
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
    } else {
      state.params = gaussiansFromPoints(readPointsPly(initPath), 0.1f);
      state.adam.resize(state.params.size());
      // Background: the median colour of the training images' borders (sky, walls) — what splats need not cover.
      for (int ch = 0; ch < 3; ch++) {
        std::vector<float> border;
        for (const auto& v : train)
          for (int x = 0; x < v.camera.width; x += 4) border.push_back(v.pixels[3 * x + ch]);
        std::nth_element(border.begin(), border.begin() + border.size() / 2, border.end());
        state.background[ch] = border[border.size() / 2];
      }
    }
    if (state.params.size() == 0) throw std::runtime_error("no points to start from");
    std::printf("training %zu views (%zu held out) at %dx%d from %zu gaussians, budget %.1f min\n", train.size(), held.size(), train[0].camera.width,
                train[0].camera.height, state.params.size(), minutes);

    const double budget = minutes * 60.0;
    DensifyStats stats;
    stats.resize(state.params.size());
    DensifyOptions densify;
    densify.sceneExtent = float(extent);
    Gradients grads;
    std::vector<float> dL;
    double lastCheckpoint = elapsed();
    int iteration = state.iteration;
    float lastLoss = 0;
    double lastPsnr = 0;
    std::uniform_int_distribution<size_t> pick(0, train.size() - 1);
    bool wasCoarse = false;
    for (;; iteration++) {
      const double spent = secondsBefore + elapsed();
      const double fraction = std::max(spent / budget, double(iteration) / maxIterations);
      if (fraction >= 1.0) break;
      const int shDegree = shEvery > 0 ? std::min(maxShDegree, int(fraction / shEvery)) : maxShDegree;
      if (shDegree > state.params.shDegree) {
        state.params.shDegree = shDegree;
        std::printf("SH degree %d at iteration %d\n", shDegree, iteration);
      }
      const View& view = train[pick(rng)];
      const bool coarse = fraction < coarseUntil;
      if (coarse != wasCoarse) {
        std::printf("%s resolution at iteration %d\n", coarse ? "half" : "full", iteration);
        wasCoarse = coarse;
      }
      const Camera& camera = coarse ? view.coarse : view.camera;
      const std::vector<float>& target = coarse ? view.coarsePixels : view.pixels;
      Render r;
      render(state.params, camera, state.background, r);
      lastLoss = l1SsimLoss(r.rgb, target, camera.width, camera.height, ssimWeight, dL);
      if (iteration % 10 == 0) lastPsnr = psnr(r.rgb, target);
      zero(grads.g, state.params.size());
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
      if (!checkpointPath.empty() && elapsed() - lastCheckpoint >= checkpointSeconds) {
        state.iteration = iteration + 1;
        state.seconds = secondsBefore + elapsed();
        std::ostringstream r2;
        r2 << rng;
        state.rng = r2.str();
        writeCheckpoint(state, checkpointPath);
        lastCheckpoint = elapsed();
        std::printf("checkpoint %d\n", state.iteration);
        std::fflush(stdout);
      }
    }

    // Held-out views rendered at the dataset's size, scored against their photos (before cropping).
    double psnrSum = 0;
    int scored = 0;
    if (!rendersDir.empty()) fs::create_directories(rendersDir);
    for (const auto& view : held) {
      Render r;
      render(state.params, view.full, state.background, r);
      sr::ImageRGB out(view.full.width, view.full.height);
      out.data = r.rgb;
      if (!rendersDir.empty()) sr::saveImage(out, rendersDir + "/" + baseName(view.name) + ".png");
      const std::string photoPath = imagesDir + "/" + view.name;
      if (fs::exists(photoPath)) {
        const sr::ImageRGB photo = sr::loadImage(photoPath);
        if (photo.width == out.width && photo.height == out.height) psnrSum += psnr(out.data, photo.data), scored++;
      }
    }
    // The published splat keeps the region of interest only.
    float center[3], radius;
    size_t cropped = 0;
    if (args.has("roi") && readRoi(args.str("roi"), center, radius)) {
      std::vector<char> keep(state.params.size(), 1);
      for (size_t i = 0; i < keep.size(); i++) {
        const float* m = &state.params.mean[3 * i];
        const float d = std::sqrt((m[0] - center[0]) * (m[0] - center[0]) + (m[1] - center[1]) * (m[1] - center[1]) + (m[2] - center[2]) * (m[2] - center[2]));
        if (!(d <= radius)) keep[i] = 0, cropped++;
      }
      keepOnly(state.params, nullptr, keep);
    }
    writeSplatPly(state.params, output);
    const double seconds = secondsBefore + elapsed();
    if (args.has("metrics")) {
      std::ofstream m(args.str("metrics"));
      m << "{\"iterations\":" << iteration << ",\"resumedFrom\":" << resumedFrom << ",\"seconds\":" << seconds << ",\"gaussians\":" << state.params.size()
        << ",\"cropped\":" << cropped << ",\"opacityResets\":" << state.opacityResets << ",\"trainPsnr\":" << lastPsnr << ",\"heldOutPsnr\":" << (scored ? psnrSum / scored : -1) << "}\n";
    }
    sr::reportProgress(1.0, "done");
    std::printf("trained %d iterations in %.1f s: %zu gaussians (%zu cropped), held-out PSNR %.2f dB on %d views\n", iteration, seconds, state.params.size(), cropped,
                scored ? psnrSum / scored : -1.0, scored);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "sr-train: %s\n", error.what());
    return 1;
  }
}
