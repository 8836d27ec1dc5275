#include "view_candidates.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sr {

std::vector<float> depthBuffer(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F, const TextureView& v) {
  const int W = v.image.width, H = v.image.height;
  std::vector<float> z(size_t(W) * H, std::numeric_limits<float>::infinity());
  for (const auto& f : F) {
    Projected p[3] = {project(v, V[f[0]]), project(v, V[f[1]]), project(v, V[f[2]])};
    if (p[0].depth <= 0 || p[1].depth <= 0 || p[2].depth <= 0) continue;
    double x0 = std::min({p[0].px.x(), p[1].px.x(), p[2].px.x()}), x1 = std::max({p[0].px.x(), p[1].px.x(), p[2].px.x()});
    double y0 = std::min({p[0].px.y(), p[1].px.y(), p[2].px.y()}), y1 = std::max({p[0].px.y(), p[1].px.y(), p[2].px.y()});
    int ix0 = std::max(0, int(std::floor(x0 - 0.5))), ix1 = std::min(W - 1, int(std::ceil(x1 - 0.5)));
    int iy0 = std::max(0, int(std::floor(y0 - 0.5))), iy1 = std::min(H - 1, int(std::ceil(y1 - 0.5)));
    if (ix0 > ix1 || iy0 > iy1) continue;
    Eigen::Vector2d a = p[0].px, b = p[1].px, c = p[2].px;
    double area = (b - a).x() * (c - a).y() - (b - a).y() * (c - a).x();
    if (std::abs(area) < 1e-12) continue;
    for (int y = iy0; y <= iy1; ++y)
      for (int x = ix0; x <= ix1; ++x) {
        Eigen::Vector2d q(x + 0.5, y + 0.5);
        double w1 = ((q - a).x() * (c - a).y() - (q - a).y() * (c - a).x()) / area;
        double w2 = ((b - a).x() * (q - a).y() - (b - a).y() * (q - a).x()) / area;
        double w0 = 1 - w1 - w2;
        if (w0 < 0 || w1 < 0 || w2 < 0) continue;
        // Perspective-correct depth: 1/z is affine in screen space.
        double invz = w0 / p[0].depth + w1 / p[1].depth + w2 / p[2].depth;
        float d = float(1.0 / invz);
        float& cell = z[size_t(y) * W + x];
        if (d < cell) cell = d;
      }
  }
  return z;
}

bool seenAt(const std::vector<float>& z, int W, int H, const Projected& q) {
  if (q.depth <= 0) return false;
  const int x = int(std::floor(q.px.x())), y = int(std::floor(q.px.y()));
  if (x < 0 || y < 0 || x >= W || y >= H) return false;
  float nearest = std::numeric_limits<float>::infinity();
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int xx = std::clamp(x + dx, 0, W - 1), yy = std::clamp(y + dy, 0, H - 1);
      nearest = std::min(nearest, std::abs(z[size_t(yy) * W + xx] - float(q.depth)));
    }
  return nearest <= 0.01 * q.depth;
}

std::vector<std::vector<Candidate>> candidateViews(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F,
                                                   const std::vector<TextureView>& views, const std::vector<std::vector<float>>& depths) {
  std::vector<std::vector<Candidate>> candidates(F.size());
  for (size_t vi = 0; vi < views.size(); ++vi) {
    const TextureView& v = views[vi];
    const std::vector<float>& z = depths[vi];
    const int W = v.image.width, H = v.image.height;
    const Eigen::Vector3d camCentre = -(v.R.transpose() * v.t);
#pragma omp parallel for schedule(static)
    for (long fi = 0; fi < long(F.size()); ++fi) {
      const auto& f = F[fi];
      Projected p[3] = {project(v, V[f[0]]), project(v, V[f[1]]), project(v, V[f[2]])};
      if (p[0].depth <= 0 || p[1].depth <= 0 || p[2].depth <= 0) continue;
      // Front-facing only: the face's normal (counter-clockwise in the world) must point at the camera.
      const Eigen::Vector3f n = (V[f[1]] - V[f[0]]).cross(V[f[2]] - V[f[0]]);
      const Eigen::Vector3f centre = (V[f[0]] + V[f[1]] + V[f[2]]) / 3.f;
      if (n.cast<double>().dot(camCentre - centre.cast<double>()) <= 0) continue;
      const Projected pc = project(v, centre);
      if (!seenAt(z, W, H, p[0]) || !seenAt(z, W, H, p[1]) || !seenAt(z, W, H, p[2]) || !seenAt(z, W, H, pc)) continue;
      const Eigen::Vector2d a = p[0].px, b = p[1].px, c = p[2].px;
      const double area = 0.5 * std::abs((b - a).x() * (c - a).y() - (b - a).y() * (c - a).x());
      if (area > 0) candidates[fi].push_back({int(vi), float(area)});
    }
  }
  return candidates;
}

Eigen::Vector3f meanColour(const Eigen::Vector3f* corners, const TextureView& v) {
  static const float kBary[7][3] = {{1 / 3.f, 1 / 3.f, 1 / 3.f}, {0.6f, 0.2f, 0.2f}, {0.2f, 0.6f, 0.2f}, {0.2f, 0.2f, 0.6f},
                                    {0.1f, 0.45f, 0.45f},       {0.45f, 0.1f, 0.45f}, {0.45f, 0.45f, 0.1f}};
  Eigen::Vector3f sum = Eigen::Vector3f::Zero();
  for (const auto& w : kBary) {
    const Projected p = project(v, w[0] * corners[0] + w[1] * corners[1] + w[2] * corners[2]);
    float rgb[3];
    v.image.sample(float(p.px.x()), float(p.px.y()), rgb);
    sum += Eigen::Vector3f(rgb[0], rgb[1], rgb[2]);
  }
  return sum / 7.f;
}

std::vector<Candidate> consistentViews(std::vector<Candidate> candidates, const Eigen::Vector3f* corners,
                                       const std::vector<TextureView>& views, const ConsistencyOptions& o) {
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score || (a.score == b.score && a.view < b.view); });
  const float floor = candidates.empty() ? 0.f : candidates.front().score * o.minScoreShare;
  std::vector<Candidate> kept;
  for (const Candidate& c : candidates)
    if (int(kept.size()) < o.maxViews && c.score >= floor) kept.push_back(c);
  if (kept.size() < 3) return kept;
  std::vector<Eigen::Vector3f> colours;
  for (const Candidate& c : kept) colours.push_back(meanColour(corners, views[c.view]));
  Eigen::Vector3f median;
  for (int k = 0; k < 3; ++k) {
    std::vector<float> channel;
    for (const auto& c : colours) channel.push_back(c[k]);
    std::nth_element(channel.begin(), channel.begin() + channel.size() / 2, channel.end());
    median[k] = channel[channel.size() / 2];
  }
  std::vector<Candidate> agreeing;
  for (size_t i = 0; i < kept.size(); ++i)
    if ((colours[i] - median).norm() <= o.outlierColour) agreeing.push_back(kept[i]);
  if (agreeing.empty()) agreeing.push_back(kept.front());
  return agreeing;
}

std::vector<int> selectViews(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F,
                             const std::vector<TextureView>& views) {
  std::vector<std::vector<float>> depths;
  for (const TextureView& v : views) depths.push_back(depthBuffer(V, F, v));
  const auto candidates = candidateViews(V, F, views, depths);
  std::vector<int> best(F.size(), -1);
  for (size_t fi = 0; fi < F.size(); ++fi) {
    float bestScore = 0;
    for (const Candidate& c : candidates[fi])
      if (c.score > bestScore) bestScore = c.score, best[fi] = c.view;
  }
  return best;
}

}  // namespace sr
