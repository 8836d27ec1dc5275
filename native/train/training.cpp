#include "train/training.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace sr::train {
namespace {

void resizeLike(Gaussians& g, size_t n) {
  g.resize(n);
  std::fill(g.mean.begin(), g.mean.end(), 0.f), std::fill(g.logScale.begin(), g.logScale.end(), 0.f);
  std::fill(g.quat.begin(), g.quat.end(), 0.f), std::fill(g.opacity.begin(), g.opacity.end(), 0.f), std::fill(g.color.begin(), g.color.end(), 0.f);
  std::fill(g.sh.begin(), g.sh.end(), 0.f);
}

void adamBlock(std::vector<float>& p, const std::vector<float>& grad, std::vector<float>& m, std::vector<float>& v, float lr, int step) {
  const float b1 = 0.9f, b2 = 0.999f, eps = 1e-15f;
  const float c1 = 1.f - std::pow(b1, float(step)), c2 = 1.f - std::pow(b2, float(step));
  const float stepSize = lr * std::sqrt(c2) / c1;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < long(p.size()); i++) {
    const float g = grad[i];
    m[i] = b1 * m[i] + (1 - b1) * g;
    v[i] = b2 * v[i] + (1 - b2) * g * g;
    p[i] -= stepSize * m[i] / (std::sqrt(v[i]) + eps);
  }
}

// Appends gaussian `i` of `from` to `to` (all blocks); `from` may be `to` itself.
void append(Gaussians& to, const Gaussians& from, size_t i) {
  float m[3], s[3], q[4], c[3];
  for (int k = 0; k < 3; k++) m[k] = from.mean[3 * i + k], s[k] = from.logScale[3 * i + k], c[k] = from.color[3 * i + k];
  for (int k = 0; k < 4; k++) q[k] = from.quat[4 * i + k];
  const float o = from.opacity[i];
  to.mean.insert(to.mean.end(), m, m + 3);
  to.logScale.insert(to.logScale.end(), s, s + 3);
  to.quat.insert(to.quat.end(), q, q + 4);
  to.opacity.push_back(o);
  to.color.insert(to.color.end(), c, c + 3);
  const size_t shAt = to.sh.size();
  to.sh.resize(shAt + 3 * kShRest);
  std::copy_n(from.sh.begin() + std::ptrdiff_t(3 * kShRest * i), 3 * kShRest, to.sh.begin() + std::ptrdiff_t(shAt));
}

void appendZeros(Gaussians& g, size_t count) {
  g.mean.resize(g.mean.size() + 3 * count, 0.f), g.logScale.resize(g.logScale.size() + 3 * count, 0.f);
  g.quat.resize(g.quat.size() + 4 * count, 0.f), g.opacity.resize(g.opacity.size() + count, 0.f), g.color.resize(g.color.size() + 3 * count, 0.f);
  g.sh.resize(g.sh.size() + 3 * kShRest * count, 0.f);
}

}  // namespace

void Adam::resize(size_t n) {
  resizeLike(m, n);
  resizeLike(v, n);
}

void adamStep(Gaussians& params, const Gaussians& grads, Adam& state, const LearningRates& lr) {
  state.step++;
  adamBlock(params.mean, grads.mean, state.m.mean, state.v.mean, lr.mean, state.step);
  adamBlock(params.logScale, grads.logScale, state.m.logScale, state.v.logScale, lr.logScale, state.step);
  adamBlock(params.quat, grads.quat, state.m.quat, state.v.quat, lr.quat, state.step);
  adamBlock(params.opacity, grads.opacity, state.m.opacity, state.v.opacity, lr.opacity, state.step);
  adamBlock(params.color, grads.color, state.m.color, state.v.color, lr.color, state.step);
  // Higher SH coefficients only once they are in use (before, their gradients are zero and Adam would leave them).
  if (params.shDegree > 0) adamBlock(params.sh, grads.sh, state.m.sh, state.v.sh, lr.sh, state.step);
}

void resetOpacity(Gaussians& g, Adam& adam, float ceiling) {
  const float logit = std::log(ceiling / (1.f - ceiling));
  for (auto& o : g.opacity) o = std::min(o, logit);
  std::fill(adam.m.opacity.begin(), adam.m.opacity.end(), 0.f);
  std::fill(adam.v.opacity.begin(), adam.v.opacity.end(), 0.f);
}

int OpacityResetSchedule::dueBy(double fraction) const {
  if (!(every > 0)) return 0;
  // Resets k = 1, 2, … at k·every, counted while k·every < densifyUntil (a tolerance keeps 4 × 0.175 out of a 0.7 window).
  const int inWindow = int(std::ceil(densifyUntil / every - 1e-9)) - 1;
  const int passed = int(std::floor(fraction / every + 1e-9));
  return std::max(0, std::min(passed, inWindow));
}

bool PlateauRule::reached(const std::vector<Check>& checks) const {
  if (checks.empty() || checks.back().fraction < after) return false;
  const double windowStart = checks.back().fraction - window;
  double before = -1e30, recent = -1e30;
  int inWindow = 0, earlier = 0;
  for (const Check& c : checks) {
    if (c.fraction <= windowStart) before = std::max(before, c.psnr), earlier++;
    else recent = std::max(recent, c.psnr), inWindow++;
  }
  // Judged only once the window holds several checks and something precedes it.
  return earlier > 0 && inWindow >= 3 && recent < before + gain;
}

float percentile(std::vector<float> values, double fraction) {
  if (values.empty()) return 0.f;
  const size_t at = std::min(values.size() - 1, size_t(std::max(0.0, fraction) * double(values.size())));
  std::nth_element(values.begin(), values.begin() + at, values.end());
  return values[at];
}

float nearPlaneFromDepths(std::vector<float> depths, float fallback) {
  depths.erase(std::remove_if(depths.begin(), depths.end(), [](float d) { return !(d > 0); }), depths.end());
  if (depths.size() < 10) return fallback;
  return 0.5f * percentile(std::move(depths), 0.02);
}

std::vector<char> clearOfNearPlanes(const Gaussians& g, const std::vector<PhotoView>& views, float tolerance) {
  std::vector<char> keep(g.size(), 1);
  std::vector<std::array<float, 3>> centres(views.size());
  for (size_t k = 0; k < views.size(); k++) views[k].camera->center(centres[k].data());
#pragma omp parallel for schedule(static)
  for (long li = 0; li < long(g.size()); li++) {
    const size_t i = size_t(li);
    const float* m = &g.mean[3 * i];
    for (size_t k = 0; k < views.size() && keep[i]; k++) {
      const Camera& cam = *views[k].camera;
      float pc[3];
      for (int r = 0; r < 3; r++) pc[r] = cam.R[r * 3] * m[0] + cam.R[r * 3 + 1] * m[1] + cam.R[r * 3 + 2] * m[2] + cam.t[r];
      if (!(pc[2] > 0.f && pc[2] < kLookedThroughShare * cam.near)) continue;
      const float u = cam.fx * pc[0] / pc[2] + cam.cx, v = cam.fy * pc[1] / pc[2] + cam.cy;
      if (!(u >= 0.f && u < float(cam.width) && v >= 0.f && v < float(cam.height))) continue;
      float rgb[3];
      shColor(g, i, centres[k].data(), rgb);
      const float* photo = &(*views[k].pixels)[3 * (size_t(v) * size_t(cam.width) + size_t(u))];
      float difference = 0.f;
      for (int ch = 0; ch < 3; ch++) difference += std::fabs(std::clamp(rgb[ch], 0.f, 1.f) - photo[ch]) / 3.f;
      if (difference > tolerance) keep[i] = 0;
    }
  }
  return keep;
}

void appendAll(Gaussians& to, const Gaussians& from) {
  for (size_t i = 0; i < from.size(); i++) append(to, from, i);
}

void keepOnly(Gaussians& g, Adam* adam, const std::vector<char>& keep) {
  auto filter = [&](Gaussians& x) {
    Gaussians out;
    out.shDegree = x.shDegree;
    for (size_t i = 0; i < keep.size(); i++)
      if (keep[i]) append(out, x, i);
    x = std::move(out);
  };
  filter(g);
  if (adam) {
    filter(adam->m);
    filter(adam->v);
  }
}

DensifyResult densifyAndPrune(Gaussians& g, Adam& adam, const DensifyStats& stats, const DensifyOptions& o, std::mt19937& rng) {
  DensifyResult result;
  const size_t n = g.size();
  std::vector<char> keep(n, 1);
  std::normal_distribution<float> normal(0.f, 1.f);
  size_t budget = o.maxGaussians > n ? o.maxGaussians - n : 0;
  const auto reach = [&](size_t i) {
    const float* m = &g.mean[3 * i];
    return std::max(o.sceneExtent, std::sqrt((m[0] - o.center[0]) * (m[0] - o.center[0]) + (m[1] - o.center[1]) * (m[1] - o.center[1]) + (m[2] - o.center[2]) * (m[2] - o.center[2])));
  };
  for (size_t i = 0; i < n && budget > 0; i++) {
    if (stats.seen[i] == 0 || stats.gradSum[i] / float(stats.seen[i]) < o.gradThreshold) continue;
    if (reach(i) > o.densifyWithin) continue;
    const float* ls = &g.logScale[3 * i];
    const float maxScale = std::exp(std::max(ls[0], std::max(ls[1], ls[2])));
    if (maxScale <= o.percentDense * reach(i)) {
      append(g, g, i);  // clone: the copy moves apart as both are optimised
      appendZeros(adam.m, 1), appendZeros(adam.v, 1);
      result.cloned++, budget--;
    } else if (budget >= 2) {
      // Split: two gaussians sampled from the original, 1.6× smaller.
      float q[4];
      const float* qr = &g.quat[4 * i];
      const float norm = std::sqrt(qr[0] * qr[0] + qr[1] * qr[1] + qr[2] * qr[2] + qr[3] * qr[3]) + 1e-12f;
      for (int k = 0; k < 4; k++) q[k] = qr[k] / norm;
      const float w = q[0], x = q[1], y = q[2], z = q[3];
      const float R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z), 1 - 2 * (x * x + z * z),
                          2 * (y * z - w * x), 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)};
      for (int copy = 0; copy < 2; copy++) {
        const size_t j = g.size();
        append(g, g, i);
        float local[3];
        for (int k = 0; k < 3; k++) local[k] = normal(rng) * std::exp(g.logScale[3 * i + k]);
        for (int r = 0; r < 3; r++) g.mean[3 * j + r] += R[r * 3] * local[0] + R[r * 3 + 1] * local[1] + R[r * 3 + 2] * local[2];
        for (int k = 0; k < 3; k++) g.logScale[3 * j + k] -= std::log(1.6f);
        appendZeros(adam.m, 1), appendZeros(adam.v, 1);
      }
      keep[i] = 0;
      result.split++, budget -= 2;
    }
  }
  keep.resize(g.size(), 1);
  for (size_t i = 0; i < g.size(); i++) {
    const float opacity = 1.f / (1.f + std::exp(-g.opacity[i]));
    const float* ls = &g.logScale[3 * i];
    const float maxScale = std::exp(std::max(ls[0], std::max(ls[1], ls[2])));
    if (keep[i] && (opacity < o.minOpacity || !std::isfinite(g.mean[3 * i]) || maxScale > 0.5f * reach(i))) {
      keep[i] = 0;
      result.pruned++;
    }
  }
  keepOnly(g, &adam, keep);
  return result;
}

float l1Loss(const std::vector<float>& rendered, const std::vector<float>& target, std::vector<float>& grad) {
  grad.resize(rendered.size());
  double sum = 0;
  const float scale = 1.f / float(rendered.size());
  for (size_t i = 0; i < rendered.size(); i++) {
    const float d = rendered[i] - target[i];
    sum += std::fabs(d);
    grad[i] = d > 0 ? scale : d < 0 ? -scale : 0.f;
  }
  return float(sum / double(rendered.size()));
}

double psnr(const std::vector<float>& a, const std::vector<float>& b) {
  double mse = 0;
  for (size_t i = 0; i < a.size(); i++) {
    const double d = std::clamp(a[i], 0.f, 1.f) - std::clamp(b[i], 0.f, 1.f);
    mse += d * d;
  }
  mse /= double(a.size());
  return mse > 0 ? 10.0 * std::log10(1.0 / mse) : 99.0;
}

}  // namespace sr::train
