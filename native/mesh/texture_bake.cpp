#include "texture_bake.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

namespace sr {
namespace {

// Faces per placement block side: blocks of 16×16 cells hold 256 faces that lie together on the surface.
constexpr int kBlock = 16;

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

// Whether a projected point is inside the image and is the nearest surface there: its depth matches the
// z-buffer within 1 % somewhere in its 3×3 pixel neighbourhood (a point on an edge of its face).
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

struct Candidate {
  int view;
  float score;  // projected area in pixels
};

// Every view that sees each face whole (front-facing, corners and centre visible), with its score.
std::vector<std::vector<Candidate>> candidateViews(const std::vector<Eigen::Vector3f>& V,
                                                   const std::vector<Eigen::Vector3i>& F,
                                                   const std::vector<TextureView>& views,
                                                   const std::vector<std::vector<float>>& depths) {
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

// The face's mean colour in one view: the photo sampled at seven points spread over the triangle.
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

// The candidates a face is painted from: the best-scored ones, without views whose colour of the face
// disagrees with the others' median (at least three views are needed to outvote one).
std::vector<Candidate> consistentViews(std::vector<Candidate> candidates, const Eigen::Vector3f* corners,
                                       const std::vector<TextureView>& views, const BakeOptions& o) {
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
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

// Spreads the bits of a 10-bit value to every third bit (3D Morton code).
uint32_t spread3(uint32_t x) {
  x &= 0x3ff;
  x = (x | (x << 16)) & 0x030000ff;
  x = (x | (x << 8)) & 0x0300f00f;
  x = (x | (x << 4)) & 0x030c30c3;
  x = (x | (x << 2)) & 0x09249249;
  return x;
}

// Gathers every other bit (inverse of a 2D Morton interleave).
int compact2(uint32_t x) {
  x &= 0x55555555;
  x = (x | (x >> 1)) & 0x33333333;
  x = (x | (x >> 2)) & 0x0f0f0f0f;
  x = (x | (x >> 4)) & 0x00ff00ff;
  x = (x | (x >> 8)) & 0x0000ffff;
  return int(x);
}

int atlasRows(size_t faceCount, int columns) {
  const size_t perBlockRow = size_t(columns / kBlock) * kBlock * kBlock;
  return int((faceCount + perBlockRow - 1) / perBlockRow) * kBlock;
}

// The cell side at which a typical face gets as many texels as it covers pixels in its best photo (times
// texelsPerPixel² for filtering), plus the cell's margins: more texels hold no more detail, and a smaller
// cell keeps the texture's mip levels closer to the surface around each face.
int photoMatchedCell(const std::vector<std::vector<Candidate>>& candidates, float texelsPerPixel) {
  std::vector<float> best;
  for (const auto& c : candidates)
    if (!c.empty()) best.push_back(std::max_element(c.begin(), c.end(), [](const Candidate& a, const Candidate& b) { return a.score < b.score; })->score);
  if (best.empty()) return std::numeric_limits<int>::max();
  std::nth_element(best.begin(), best.begin() + best.size() / 2, best.end());
  // A right triangle with legs L texels covers L²/2 of them; the cell adds 2.5 texels of margin to its legs.
  const float legs = texelsPerPixel * std::sqrt(2.f * best[best.size() / 2]);
  return std::max(4, int(std::ceil(legs + 2.5f)));
}

}  // namespace

int atlasColumns(size_t faceCount) {
  const int side = std::max(1, int(std::ceil(std::sqrt(double(std::max<size_t>(faceCount, 1))))));
  return (side + kBlock - 1) / kBlock * kBlock;
}

int atlasCellSize(size_t faceCount, int maxSide, int preferredCell) {
  const int columns = atlasColumns(faceCount);
  const int rows = atlasRows(faceCount, columns);
  return std::max(2, std::min(preferredCell, maxSide / std::max(columns, rows)));
}

std::vector<Eigen::Vector2i> atlasPlacement(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F,
                                            int columns) {
  Eigen::Vector3f lo = Eigen::Vector3f::Constant(std::numeric_limits<float>::infinity()), hi = -lo;
  std::vector<Eigen::Vector3f> centres(F.size());
  for (size_t fi = 0; fi < F.size(); ++fi) {
    centres[fi] = (V[F[fi][0]] + V[F[fi][1]] + V[F[fi][2]]) / 3.f;
    lo = lo.cwiseMin(centres[fi]);
    hi = hi.cwiseMax(centres[fi]);
  }
  const float extent = std::max((hi - lo).maxCoeff(), 1e-12f);
  std::vector<uint32_t> code(F.size());
  for (size_t fi = 0; fi < F.size(); ++fi) {
    const Eigen::Vector3f q = (centres[fi] - lo) / extent * 1023.f;
    code[fi] = spread3(uint32_t(q.x())) | (spread3(uint32_t(q.y())) << 1) | (spread3(uint32_t(q.z())) << 2);
  }
  std::vector<size_t> order(F.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return code[a] < code[b]; });
  const int blocksPerRow = std::max(1, columns / kBlock);
  std::vector<Eigen::Vector2i> cell(F.size());
  for (size_t rank = 0; rank < order.size(); ++rank) {
    const size_t block = rank / (kBlock * kBlock);
    const uint32_t inBlock = uint32_t(rank % (kBlock * kBlock));
    cell[order[rank]] = {int(block % blocksPerRow) * kBlock + compact2(inBlock),
                         int(block / blocksPerRow) * kBlock + compact2(inBlock >> 1)};
  }
  return cell;
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

BakedTexture bakeTexture(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F,
                         const std::vector<TextureView>& views, const BakeOptions& o) {
  BakedTexture out;
  std::vector<std::vector<float>> depths(views.size());
#pragma omp parallel for schedule(dynamic)
  for (long vi = 0; vi < long(views.size()); ++vi) depths[vi] = depthBuffer(V, F, views[vi]);
  const auto candidates = candidateViews(V, F, views, depths);

  const int columns = atlasColumns(F.size());
  const int rows = atlasRows(F.size(), columns);
  const int cell = std::min(atlasCellSize(F.size(), o.maxSide, o.preferredCell), photoMatchedCell(candidates, o.texelsPerPixel));
  const std::vector<Eigen::Vector2i> placement = atlasPlacement(V, F, columns);
  out.cell = cell;
  out.atlas = ImageRGB(columns * cell, rows * cell, 0.5f);
  out.uv.resize(F.size() * 3);
  out.faceView.assign(F.size(), -1);
  out.faceViewCount.assign(F.size(), 0);
  // The triangle sits in the cell's lower-left half, one texel inside the cell's left/bottom/top edges
  // and away from the diagonal, so neighbouring cells never bleed into it.
  const float lo = 1.0f, hi = float(cell) - 1.5f;
  const float W = float(out.atlas.width), H = float(out.atlas.height);
#pragma omp parallel for schedule(dynamic, 256)
  for (long fi = 0; fi < long(F.size()); ++fi) {
    const float ox = float(placement[fi].x() * cell), oy = float(placement[fi].y() * cell);
    const Eigen::Vector2f t0(ox + lo, oy + lo), t1(ox + hi, oy + lo), t2(ox + lo, oy + hi);
    out.uv[fi * 3 + 0] = {t0.x() / W, t0.y() / H};
    out.uv[fi * 3 + 1] = {t1.x() / W, t1.y() / H};
    out.uv[fi * 3 + 2] = {t2.x() / W, t2.y() / H};
    const auto& f = F[fi];
    const Eigen::Vector3f corners[3] = {V[f[0]], V[f[1]], V[f[2]]};
    const std::vector<Candidate> used = consistentViews(candidates[fi], corners, views, o);
    if (used.empty()) continue;
    out.faceView[fi] = candidates[fi].empty() ? -1 : std::max_element(candidates[fi].begin(), candidates[fi].end(), [](const Candidate& a, const Candidate& b) { return a.score < b.score; })->view;
    out.faceViewCount[fi] = int(used.size());
    std::vector<float> weight(used.size());
    for (size_t i = 0; i < used.size(); ++i) weight[i] = std::pow(used[i].score / used.front().score, o.weightPower);
    for (int y = 0; y < cell; ++y)
      for (int x = 0; x < cell; ++x) {
        // Texel centre → barycentric in the cell triangle (affine, extrapolated outside it).
        const float s = (ox + x + 0.5f - t0.x()) / (hi - lo), u = (oy + y + 0.5f - t0.y()) / (hi - lo);
        const Eigen::Vector3f X = corners[0] + s * (corners[1] - corners[0]) + u * (corners[2] - corners[0]);
        float sum[3] = {0, 0, 0}, total = 0, first[3] = {0.5f, 0.5f, 0.5f};
        for (size_t i = 0; i < used.size(); ++i) {
          const TextureView& v = views[used[i].view];
          const Projected p = project(v, X);
          if (p.depth <= 0) continue;
          float rgb[3];
          v.image.sample(float(p.px.x()), float(p.px.y()), rgb);
          if (i == 0) std::copy(rgb, rgb + 3, first);
          // Per texel, only views that see this very point (the face may be partly hidden in some).
          if (!seenAt(depths[used[i].view], v.image.width, v.image.height, p)) continue;
          for (int k = 0; k < 3; ++k) sum[k] += weight[i] * rgb[k];
          total += weight[i];
        }
        float* texel = out.atlas.px(int(ox) + x, int(oy) + y);
        for (int k = 0; k < 3; ++k) texel[k] = total > 0 ? sum[k] / total : first[k];
      }
  }
  return out;
}

}  // namespace sr
