#include "texture_bake.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sr {
namespace {

struct Projected {
  Eigen::Vector2d px;
  double depth;
};

Projected project(const TextureView& v, const Eigen::Vector3f& X) {
  Eigen::Vector3d c = v.R * X.cast<double>() + v.t;
  return {{v.fx * c.x() / c.z() + v.cx, v.fy * c.y() / c.z() + v.cy}, c.z()};
}

// Nearest depth per pixel of the mesh rendered into the view (infinity where empty).
std::vector<float> depthBuffer(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F,
                               const TextureView& v) {
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

}  // namespace

int atlasCellSize(size_t faceCount, int maxSide, int preferredCell) {
  if (faceCount == 0) return preferredCell;
  int cols = int(std::ceil(std::sqrt(double(faceCount))));
  return std::max(2, std::min(preferredCell, maxSide / cols));
}

std::vector<int> selectViews(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F,
                             const std::vector<TextureView>& views) {
  std::vector<int> best(F.size(), -1);
  std::vector<double> bestScore(F.size(), 0.0);
  for (size_t vi = 0; vi < views.size(); ++vi) {
    const TextureView& v = views[vi];
    std::vector<float> z = depthBuffer(V, F, v);
    const int W = v.image.width, H = v.image.height;
#pragma omp parallel for schedule(static)
    for (long fi = 0; fi < long(F.size()); ++fi) {
      const auto& f = F[fi];
      Projected p[3] = {project(v, V[f[0]]), project(v, V[f[1]]), project(v, V[f[2]])};
      if (p[0].depth <= 0 || p[1].depth <= 0 || p[2].depth <= 0) continue;
      Eigen::Vector2d a = p[0].px, b = p[1].px, c = p[2].px;
      // Front-facing only: the face's normal (counter-clockwise in the world) must point at the camera.
      Eigen::Vector3f n = (V[f[1]] - V[f[0]]).cross(V[f[2]] - V[f[0]]);
      Eigen::Vector3d centre = ((V[f[0]] + V[f[1]] + V[f[2]]) / 3.f).cast<double>();
      Eigen::Vector3d camCentre = -(v.R.transpose() * v.t);
      if (n.cast<double>().dot(camCentre - centre) <= 0) continue;
      double area = 0.5 * std::abs((b - a).x() * (c - a).y() - (b - a).y() * (c - a).x());
      // Every corner and the centre inside the image and not hidden behind nearer surface.
      bool visible = true;
      Projected pc = project(v, centre.cast<float>());
      const Projected* probes[4] = {&p[0], &p[1], &p[2], &pc};
      for (const Projected* q : probes) {
        int x = int(std::floor(q->px.x())), y = int(std::floor(q->px.y()));
        if (x < 0 || y < 0 || x >= W || y >= H) { visible = false; break; }
        // Look for the probe's depth in a 3×3 neighbourhood (a corner lies on the edge of its own face).
        float nearest = std::numeric_limits<float>::infinity();
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            int xx = std::clamp(x + dx, 0, W - 1), yy = std::clamp(y + dy, 0, H - 1);
            nearest = std::min(nearest, std::abs(z[size_t(yy) * W + xx] - float(q->depth)));
          }
        if (nearest > 0.01 * q->depth) { visible = false; break; }
      }
      if (!visible) continue;
      if (area > bestScore[fi]) {
        bestScore[fi] = area;
        best[fi] = int(vi);
      }
    }
  }
  return best;
}

BakedTexture bakeTexture(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F,
                         const std::vector<TextureView>& views, int maxSide, int preferredCell) {
  BakedTexture out;
  out.faceView = selectViews(V, F, views);
  const int cell = atlasCellSize(F.size(), maxSide, preferredCell);
  const int cols = std::max(1, int(std::ceil(std::sqrt(double(std::max<size_t>(F.size(), 1))))));
  const int rows = std::max(1, int((F.size() + cols - 1) / cols));
  out.cell = cell;
  out.atlas = ImageRGB(cols * cell, rows * cell, 0.5f);
  out.uv.resize(F.size() * 3);
  // The triangle sits in the cell's lower-left half, one texel inside the cell's left/bottom/top edges
  // and away from the diagonal, so neighbouring cells never bleed into it.
  const float lo = 1.0f, hi = float(cell) - 1.5f;
  const float W = float(out.atlas.width), H = float(out.atlas.height);
#pragma omp parallel for schedule(static)
  for (long fi = 0; fi < long(F.size()); ++fi) {
    const float ox = float((fi % cols) * cell), oy = float((fi / cols) * cell);
    Eigen::Vector2f t0(ox + lo, oy + lo), t1(ox + hi, oy + lo), t2(ox + lo, oy + hi);
    out.uv[fi * 3 + 0] = {t0.x() / W, t0.y() / H};
    out.uv[fi * 3 + 1] = {t1.x() / W, t1.y() / H};
    out.uv[fi * 3 + 2] = {t2.x() / W, t2.y() / H};
    const int vi = out.faceView[fi];
    if (vi < 0) continue;
    const auto& f = F[fi];
    const TextureView& v = views[vi];
    for (int y = 0; y < cell; ++y)
      for (int x = 0; x < cell; ++x) {
        // Texel centre → barycentric in the cell triangle (affine, extrapolated outside it).
        float s = (ox + x + 0.5f - t0.x()) / (hi - lo), u = (oy + y + 0.5f - t0.y()) / (hi - lo);
        Eigen::Vector3f X = V[f[0]] + s * (V[f[1]] - V[f[0]]) + u * (V[f[2]] - V[f[0]]);
        Projected p = project(v, X);
        if (p.depth <= 0) continue;
        v.image.sample(float(p.px.x()), float(p.px.y()), out.atlas.px(int(ox) + x, int(oy) + y));
      }
  }
  return out;
}

}  // namespace sr
