#include "texture_bake.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

namespace sr {
namespace {

// Texels per side of the cell each unseen face gets (flat colour).
constexpr int kUnseenCell = 4;

// A patch's rectangle: where in its photo it starts (whole pixels), and its size in the atlas.
struct PatchRect {
  int view = -1;
  Eigen::Vector2d photoOrigin{0, 0};
  Eigen::Vector2i size{0, 0};
};

// The photo pixels a patch covers, bounded by the projections of its faces' corners.
void patchBounds(const std::vector<int>& faces, const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F,
                 const TextureView& v, Eigen::Vector2d& lo, Eigen::Vector2d& hi) {
  lo = Eigen::Vector2d::Constant(std::numeric_limits<double>::infinity());
  hi = -lo;
  for (int fi : faces)
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector2d p = project(v, V[F[fi][k]]).px;
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
}

PatchRect rectAtScale(int view, const Eigen::Vector2d& lo, const Eigen::Vector2d& hi, double scale, int margin) {
  PatchRect r;
  r.view = view;
  r.photoOrigin = Eigen::Vector2d(std::floor(lo.x() - margin / scale), std::floor(lo.y() - margin / scale));
  r.size = Eigen::Vector2i(int(std::ceil((hi.x() - r.photoOrigin.x()) * scale + margin)), int(std::ceil((hi.y() - r.photoOrigin.y()) * scale + margin)));
  return r;
}

// The colour of each face no view sees: the mean of its neighbours', spreading inwards from the seen ones.
std::vector<Eigen::Vector3f> unseenColours(const std::vector<int>& label, const std::vector<std::array<int, 3>>& neighbours,
                                           const std::vector<Eigen::Vector3f>& seenColour) {
  std::vector<Eigen::Vector3f> colour = seenColour;
  std::vector<char> known(label.size());
  for (size_t fi = 0; fi < label.size(); ++fi) known[fi] = label[fi] >= 0;
  std::vector<int> front;
  for (size_t fi = 0; fi < label.size(); ++fi)
    if (!known[fi]) front.push_back(int(fi));
  while (!front.empty()) {
    std::vector<int> next, settled;
    std::vector<Eigen::Vector3f> values;
    for (int fi : front) {
      Eigen::Vector3f sum = Eigen::Vector3f::Zero();
      int n = 0;
      for (int g : neighbours[fi])
        if (g >= 0 && known[g]) sum += colour[g], ++n;
      if (n) settled.push_back(fi), values.push_back(sum / float(n));
      else next.push_back(fi);
    }
    if (settled.empty()) {
      for (int fi : next) colour[fi] = Eigen::Vector3f::Constant(0.5f);  // a piece no photo sees at all
      break;
    }
    for (size_t i = 0; i < settled.size(); ++i) colour[settled[i]] = values[i], known[settled[i]] = 1;
    front.swap(next);
  }
  return colour;
}

// Adds the seam levelling's corrections to a patch's rectangle: each texel takes the correction of the face
// it lies in (barycentric blend of the face's corner corrections), or within `reach` texels outside the
// patch's faces, of the nearest one's nearest point, so filtering across the patch's edge sees the same colour.
void applyCorrections(ImageRGB& atlas, const Eigen::Vector2i& at, const Eigen::Vector2i& size, const std::vector<int>& faces,
                      const std::vector<Eigen::Vector3i>& F, const std::vector<Eigen::Vector2f>& uv,
                      const std::unordered_map<int, Eigen::Vector3f>& correction, float reach) {
  const float W = float(atlas.width), H = float(atlas.height);
  std::vector<Eigen::Vector3f> add(size_t(size.x()) * size.y(), Eigen::Vector3f::Zero());
  std::vector<float> distance(add.size(), std::numeric_limits<float>::infinity());
  for (int fi : faces) {
    Eigen::Vector2f t[3];
    Eigen::Vector3f g[3];
    for (int k = 0; k < 3; ++k) {
      t[k] = Eigen::Vector2f(uv[size_t(fi) * 3 + k].x() * W - at.x(), uv[size_t(fi) * 3 + k].y() * H - at.y());
      g[k] = correction.at(F[fi][k]);
    }
    const float area = (t[1] - t[0]).x() * (t[2] - t[0]).y() - (t[1] - t[0]).y() * (t[2] - t[0]).x();
    if (std::abs(area) < 1e-9f) continue;
    // Heights of the triangle over each edge: a barycentric weight −w is a distance of −w × height outside it.
    float height[3];
    for (int k = 0; k < 3; ++k) height[k] = std::abs(area) / std::max(1e-9f, (t[(k + 2) % 3] - t[(k + 1) % 3]).norm());
    const int x0 = std::max(0, int(std::floor(std::min({t[0].x(), t[1].x(), t[2].x()}) - reach))), x1 = std::min(size.x() - 1, int(std::ceil(std::max({t[0].x(), t[1].x(), t[2].x()}) + reach)));
    const int y0 = std::max(0, int(std::floor(std::min({t[0].y(), t[1].y(), t[2].y()}) - reach))), y1 = std::min(size.y() - 1, int(std::ceil(std::max({t[0].y(), t[1].y(), t[2].y()}) + reach)));
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        const Eigen::Vector2f q(x + 0.5f, y + 0.5f);
        float w[3];
        w[1] = ((q - t[0]).x() * (t[2] - t[0]).y() - (q - t[0]).y() * (t[2] - t[0]).x()) / area;
        w[2] = ((t[1] - t[0]).x() * (q - t[0]).y() - (t[1] - t[0]).y() * (q - t[0]).x()) / area;
        w[0] = 1 - w[1] - w[2];
        float outside = 0;
        for (int k = 0; k < 3; ++k) outside = std::max(outside, -w[k] * height[k]);
        const size_t i = size_t(y) * size.x() + x;
        if (outside > reach || outside >= distance[i]) continue;
        float sum = 0;
        for (float& wk : w) wk = std::max(0.f, wk), sum += wk;
        add[i] = (w[0] * g[0] + w[1] * g[1] + w[2] * g[2]) / sum;
        distance[i] = outside;
      }
  }
  for (int y = 0; y < size.y(); ++y)
    for (int x = 0; x < size.x(); ++x) {
      float* texel = atlas.px(at.x() + x, at.y() + y);
      const Eigen::Vector3f& a = add[size_t(y) * size.x() + x];
      for (int k = 0; k < 3; ++k) texel[k] = std::clamp(texel[k] + a[k], 0.f, 1.f);
    }
}

}  // namespace

int packRows(const std::vector<Eigen::Vector2i>& sizes, int width, std::vector<Eigen::Vector2i>& positions) {
  std::vector<size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sizes[a].y() > sizes[b].y() || (sizes[a].y() == sizes[b].y() && sizes[a].x() > sizes[b].x()); });
  positions.assign(sizes.size(), Eigen::Vector2i::Zero());
  int x = 0, y = 0, rowHeight = 0;
  for (size_t i : order) {
    if (sizes[i].x() > width) return -1;
    if (x + sizes[i].x() > width) y += rowHeight, x = 0, rowHeight = 0;
    positions[i] = {x, y};
    x += sizes[i].x();
    rowHeight = std::max(rowHeight, sizes[i].y());
  }
  return y + rowHeight;
}

BakedTexture bakeTexture(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F,
                         const std::vector<TextureView>& views, const BakeOptions& o) {
  BakedTexture out;
  // Which views see each face, then one view per face.
  std::vector<std::vector<float>> depths(views.size());
#pragma omp parallel for schedule(dynamic)
  for (long vi = 0; vi < long(views.size()); ++vi) depths[vi] = depthBuffer(V, F, views[vi]);
  std::vector<std::vector<Candidate>> candidates = candidateViews(V, F, views, depths);
#pragma omp parallel for schedule(dynamic, 256)
  for (long fi = 0; fi < long(F.size()); ++fi) {
    const Eigen::Vector3f corners[3] = {V[F[fi][0]], V[F[fi][1]], V[F[fi][2]]};
    candidates[fi] = consistentViews(std::move(candidates[fi]), corners, views, o.views);
  }
  const auto neighbours = faceNeighbours(F);
  out.faceView = labelFaces(candidates, neighbours, o.labels);
  const std::vector<std::vector<int>> patches = labelPatches(out.faceView, neighbours);
  out.patches = int(patches.size());
  std::vector<int> unseen;
  for (size_t fi = 0; fi < F.size(); ++fi)
    if (out.faceView[fi] < 0) unseen.push_back(int(fi));
  out.unseenFaces = unseen.size();

  // Rectangles at the largest scale whose packing fits the atlas; the unseen faces' cells in one block last.
  std::vector<Eigen::Vector2d> lo(patches.size()), hi(patches.size());
  for (size_t p = 0; p < patches.size(); ++p) patchBounds(patches[p], V, F, views[out.faceView[patches[p][0]]], lo[p], hi[p]);
  const int unseenColumns = unseen.empty() ? 0 : int(std::ceil(std::sqrt(double(unseen.size()))));
  const Eigen::Vector2i unseenBlock(unseenColumns * kUnseenCell, unseen.empty() ? 0 : int((unseen.size() + unseenColumns - 1) / unseenColumns) * kUnseenCell);
  std::vector<PatchRect> rects(patches.size());
  std::vector<Eigen::Vector2i> sizes, positions;
  double scale = o.texelsPerPixel;
  int width = 0, height = -1;
  for (int attempt = 0; attempt < 60; ++attempt) {
    sizes.clear();
    double area = 0;
    int widest = 0;
    for (size_t p = 0; p < patches.size(); ++p) {
      rects[p] = rectAtScale(out.faceView[patches[p][0]], lo[p], hi[p], scale, o.margin);
      sizes.push_back(rects[p].size);
    }
    if (!unseen.empty()) sizes.push_back(unseenBlock);
    for (const auto& s : sizes) area += double(s.x()) * s.y(), widest = std::max(widest, s.x());
    width = (std::max(widest, int(std::ceil(std::sqrt(area * 1.1)))) + 3) / 4 * 4;
    if (width <= o.maxSide) height = packRows(sizes, width, positions);
    if (width <= o.maxSide && height >= 0 && height <= o.maxSide) break;
    // Too large: shrink the photos' scale in proportion to the overflow (at least 3 % a step).
    const double over = double(std::max(width, height < 0 ? width : height)) / o.maxSide;
    scale *= std::min(0.97, 1.0 / over);
    height = -1;
  }
  if (height < 0 || height > o.maxSide || width > o.maxSide) throw std::runtime_error("the texture patches do not fit the largest atlas");
  out.texelsPerPixel = float(scale);
  out.atlas = ImageRGB(width, (height + 3) / 4 * 4, 0.5f);
  out.uv.resize(F.size() * 3);

  // Each patch: its photo's pixels, copied (scale 1) or box-filtered (below 1); UVs are the corners' projections.
  const float W = float(out.atlas.width), H = float(out.atlas.height);
  const int taps = std::max(1, int(std::ceil(1.0 / scale - 1e-6)));
#pragma omp parallel for schedule(dynamic, 1)
  for (long p = 0; p < long(patches.size()); ++p) {
    const PatchRect& r = rects[p];
    const TextureView& v = views[r.view];
    const Eigen::Vector2i at = positions[p];
    for (int j = 0; j < r.size.y(); ++j)
      for (int i = 0; i < r.size.x(); ++i) {
        float sum[3] = {0, 0, 0};
        for (int b = 0; b < taps; ++b)
          for (int a = 0; a < taps; ++a) {
            float rgb[3];
            v.image.sample(float(r.photoOrigin.x() + (i + (a + 0.5) / taps) / scale), float(r.photoOrigin.y() + (j + (b + 0.5) / taps) / scale), rgb);
            for (int k = 0; k < 3; ++k) sum[k] += rgb[k];
          }
        float* texel = out.atlas.px(at.x() + i, at.y() + j);
        for (int k = 0; k < 3; ++k) texel[k] = sum[k] / float(taps * taps);
      }
    for (int fi : patches[p])
      for (int k = 0; k < 3; ++k) {
        const Eigen::Vector2d t = (project(v, V[F[fi][k]]).px - r.photoOrigin) * scale + at.cast<double>();
        out.uv[size_t(fi) * 3 + k] = {float(t.x()) / W, float(t.y()) / H};
      }
  }

  // Seams between patches painted from different photos, levelled.
  if (o.levelSeams && !patches.empty()) {
    std::vector<int> patchView(patches.size());
    for (size_t p = 0; p < patches.size(); ++p) patchView[p] = rects[p].view;
    const PatchCorrections corrections = levelSeams(V, F, patches, patchView, views, o.leveling);
    double total = 0;
    size_t n = 0;
    for (const auto& patch : corrections)
      for (const auto& [vertex, g] : patch) total += g.norm(), ++n;
    out.meanCorrection = n ? float(total / double(n)) : 0.f;
#pragma omp parallel for schedule(dynamic, 1)
    for (long p = 0; p < long(patches.size()); ++p)
      applyCorrections(out.atlas, positions[p], rects[p].size, patches[p], F, out.uv, corrections[p], float(o.margin) + 1.f);
  }

  // Unseen faces: flat cells in one block, coloured from the faces around them.
  if (!unseen.empty()) {
    std::vector<Eigen::Vector3f> seenColour(F.size(), Eigen::Vector3f::Zero());
#pragma omp parallel for schedule(dynamic, 256)
    for (long fi = 0; fi < long(F.size()); ++fi) {
      if (out.faceView[fi] < 0) continue;
      const Eigen::Vector3f corners[3] = {V[F[fi][0]], V[F[fi][1]], V[F[fi][2]]};
      seenColour[fi] = meanColour(corners, views[out.faceView[fi]]);
    }
    const std::vector<Eigen::Vector3f> colour = unseenColours(out.faceView, neighbours, seenColour);
    const Eigen::Vector2i block = positions.back();
    for (size_t u = 0; u < unseen.size(); ++u) {
      const int fi = unseen[u];
      const int cx = block.x() + int(u % unseenColumns) * kUnseenCell, cy = block.y() + int(u / unseenColumns) * kUnseenCell;
      for (int y = 0; y < kUnseenCell; ++y)
        for (int x = 0; x < kUnseenCell; ++x) {
          float* texel = out.atlas.px(cx + x, cy + y);
          for (int k = 0; k < 3; ++k) texel[k] = colour[fi][k];
        }
      const Eigen::Vector2f corner[3] = {{1.f, 1.f}, {kUnseenCell - 1.f, 1.f}, {1.f, kUnseenCell - 1.f}};
      for (int k = 0; k < 3; ++k) out.uv[size_t(fi) * 3 + k] = {(cx + corner[k].x()) / W, (cy + corner[k].y()) / H};
    }
  }
  return out;
}

}  // namespace sr
