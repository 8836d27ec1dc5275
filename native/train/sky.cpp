#include "train/sky.h"
#include "train/training.h"

#include <algorithm>
#include <cmath>

namespace sr::train {

namespace {

constexpr float kPi = 3.14159265358979f;

struct Direction {
  float d[3];
};

// M directions spread evenly over the unit sphere (golden-angle spiral).
std::vector<Direction> fibonacciSphere(size_t m) {
  std::vector<Direction> out(m);
  const float golden = kPi * (3.f - std::sqrt(5.f));
  for (size_t i = 0; i < m; i++) {
    const float z = 1.f - 2.f * (float(i) + 0.5f) / float(m);
    const float r = std::sqrt(std::max(0.f, 1.f - z * z));
    const float phi = golden * float(i);
    out[i] = {{r * std::cos(phi), r * std::sin(phi), z}};
  }
  return out;
}

// The mean colour of the pixels that see the shell's point in direction d; false when no view sees it.
bool seenColor(const SkyShell& shell, const Direction& dir, const std::vector<PhotoView>& views, float rgb[3]) {
  const float p[3] = {shell.center[0] + shell.radius * dir.d[0], shell.center[1] + shell.radius * dir.d[1], shell.center[2] + shell.radius * dir.d[2]};
  double sum[3] = {0, 0, 0};
  int n = 0;
  for (const PhotoView& view : views) {
    const Camera& c = *view.camera;
    float q[3];
    for (int r = 0; r < 3; r++) q[r] = c.R[r * 3] * p[0] + c.R[r * 3 + 1] * p[1] + c.R[r * 3 + 2] * p[2] + c.t[r];
    if (!(q[2] > 0)) continue;
    const float u = c.fx * q[0] / q[2] + c.cx, v = c.fy * q[1] / q[2] + c.cy;
    // A tenth of the picture's size beyond its edges too, so the splats covering the edges are there.
    const float mx = 0.1f * float(c.width), my = 0.1f * float(c.height);
    if (!(u >= -mx && v >= -my && u < float(c.width) + mx && v < float(c.height) + my)) continue;
    const int x = std::clamp(int(u), 0, c.width - 1), y = std::clamp(int(v), 0, c.height - 1);
    const size_t pixel = size_t(y) * size_t(c.width) + size_t(x);
    for (int k = 0; k < 3; k++) sum[k] += (*view.pixels)[3 * pixel + k];
    n++;
  }
  if (n == 0) return false;
  for (int k = 0; k < 3; k++) rgb[k] = float(sum[k] / n);
  return true;
}

// Unit quaternion (w x y z) of the rotation whose columns are a, b, c.
void quaternionOfColumns(const float a[3], const float b[3], const float c[3], float q[4]) {
  const float m00 = a[0], m10 = a[1], m20 = a[2], m01 = b[0], m11 = b[1], m21 = b[2], m02 = c[0], m12 = c[1], m22 = c[2];
  const float trace = m00 + m11 + m22;
  if (trace > 0) {
    const float s = 0.5f / std::sqrt(trace + 1.f);
    q[0] = 0.25f / s, q[1] = (m21 - m12) * s, q[2] = (m02 - m20) * s, q[3] = (m10 - m01) * s;
  } else if (m00 > m11 && m00 > m22) {
    const float s = 2.f * std::sqrt(1.f + m00 - m11 - m22);
    q[0] = (m21 - m12) / s, q[1] = 0.25f * s, q[2] = (m01 + m10) / s, q[3] = (m02 + m20) / s;
  } else if (m11 > m22) {
    const float s = 2.f * std::sqrt(1.f + m11 - m00 - m22);
    q[0] = (m02 - m20) / s, q[1] = (m01 + m10) / s, q[2] = 0.25f * s, q[3] = (m12 + m21) / s;
  } else {
    const float s = 2.f * std::sqrt(1.f + m22 - m00 - m11);
    q[0] = (m10 - m01) / s, q[1] = (m02 + m20) / s, q[2] = (m12 + m21) / s, q[3] = 0.25f * s;
  }
}

}  // namespace

bool SkyShell::contains(const float* mean) const {
  const float dx = mean[0] - center[0], dy = mean[1] - center[1], dz = mean[2] - center[2];
  return dx * dx + dy * dy + dz * dz >= innerRadius() * innerRadius();
}

SkyShell skyShellAround(const float centroid[3], float sceneExtent, const std::vector<float>& xyz, float factor) {
  SkyShell shell;
  for (int k = 0; k < 3; k++) shell.center[k] = centroid[k];
  std::vector<float> distances;
  distances.reserve(xyz.size() / 3);
  for (size_t i = 0; i + 2 < xyz.size(); i += 3) distances.push_back(std::hypot(xyz[i] - centroid[0], xyz[i + 1] - centroid[1], xyz[i + 2] - centroid[2]));
  shell.radius = std::max(factor * sceneExtent, 2.f * percentile(std::move(distances), 0.99));
  return shell;
}

Gaussians skySplats(const SkyShell& shell, const std::vector<PhotoView>& views, size_t target, float opacity) {
  Gaussians g;
  if (target == 0 || views.empty() || !(shell.radius > 0)) return g;
  // Directions the views see, on a sphere fine enough that about `target` of them are seen.
  size_t m = std::max<size_t>(64, 4 * target);
  std::vector<Direction> seen;
  std::vector<float> colors;
  for (int attempt = 0; attempt < 3; attempt++) {
    seen.clear(), colors.clear();
    for (const Direction& dir : fibonacciSphere(m)) {
      float rgb[3];
      if (!seenColor(shell, dir, views, rgb)) continue;
      seen.push_back(dir);
      colors.insert(colors.end(), rgb, rgb + 3);
    }
    if (seen.empty()) return g;
    const double ratio = double(target) / double(seen.size());
    if (ratio > 0.8 && ratio < 1.25) break;
    m = std::min<size_t>(2'000'000, std::max<size_t>(64, size_t(double(m) * ratio)));
  }
  // Neighbouring directions are about √(4π/m) apart: tangential σ 0.7 of that, radial a tenth of it.
  const float spacing = std::sqrt(4.f * kPi / float(m)) * shell.radius;
  const float tangential = 0.7f * spacing, radial = 0.1f * tangential;
  const float logit = std::log(opacity / (1.f - opacity));
  g.resize(seen.size());
  std::fill(g.sh.begin(), g.sh.end(), 0.f);
  for (size_t i = 0; i < seen.size(); i++) {
    const float* d = seen[i].d;
    for (int k = 0; k < 3; k++) g.mean[3 * i + k] = shell.center[k] + shell.radius * d[k];
    // A tangent frame (t1, t2, d): the gaussian's third axis, the thin one, along the radius.
    const float helper[3] = {std::fabs(d[2]) < 0.9f ? 0.f : 1.f, 0.f, std::fabs(d[2]) < 0.9f ? 1.f : 0.f};
    float t1[3] = {helper[1] * d[2] - helper[2] * d[1], helper[2] * d[0] - helper[0] * d[2], helper[0] * d[1] - helper[1] * d[0]};
    const float n1 = std::hypot(t1[0], t1[1], t1[2]);
    for (float& v : t1) v /= n1;
    const float t2[3] = {d[1] * t1[2] - d[2] * t1[1], d[2] * t1[0] - d[0] * t1[2], d[0] * t1[1] - d[1] * t1[0]};
    quaternionOfColumns(t1, t2, d, &g.quat[4 * i]);
    g.logScale[3 * i] = g.logScale[3 * i + 1] = std::log(tangential);
    g.logScale[3 * i + 2] = std::log(radial);
    g.opacity[i] = logit;
    for (int k = 0; k < 3; k++) g.color[3 * i + k] = (colors[3 * i + k] - 0.5f) / kSHC0;
  }
  return g;
}

}  // namespace sr::train
