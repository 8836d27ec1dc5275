// Projection and tiling: each gaussian's screen ellipse (cut off at 3σ or where alpha falls under 1/255), the
// tiles it reaches (row by row, only the columns its band spans) and each tile's depth-sorted list.
#include <algorithm>
#include <cmath>
#include <cstring>

#include <omp.h>

#include "train/raster_internal.h"

namespace sr::train::detail {
namespace {

// The cut-off exponent of a gaussian of peak opacity alpha0: 3σ, or where alpha falls below 1/255 if nearer.
inline float cutoffOf(float alpha0) { return std::max(kCutoffPower, std::log(kMinAlpha / std::max(alpha0, 1e-30f))); }

// The cut-off ellipse {d : dᵀ conic d ≤ r2} of a projected gaussian, with its 2D covariance (A B C).
struct Ellipse {
  float u, v, a, b, c, A, B, C, r2;
};

// The horizontal extent of the ellipse between rows dy0..dy1 (relative to its centre), as [left, right]
// relative to u; false when the band misses it. The ellipse's right edge as a function of dy is concave, with its
// vertex (r√A) at dy = rB/√A: inside the band that is the maximum, else the nearer band edge is.
inline bool bandSpan(const Ellipse& e, float dy0, float dy1, float& left, float& right) {
  const float r = std::sqrt(e.r2), yExt = r * std::sqrt(e.C);
  const float d0 = std::max(dy0, -yExt), d1 = std::min(dy1, yExt);
  if (d0 > d1) return false;
  const float det = e.a * e.c - e.b * e.b, xExt = r * std::sqrt(e.A), dyRight = r * e.B / std::sqrt(e.A);
  const auto root = [&](float dy) { return std::sqrt(std::max(0.f, e.a * e.r2 - det * dy * dy)); };
  const auto xr = [&](float dy) { return (-e.b * dy + root(dy)) / e.a; };
  const auto xl = [&](float dy) { return (-e.b * dy - root(dy)) / e.a; };
  right = dyRight >= d0 && dyRight <= d1 ? xExt : std::max(xr(d0), xr(d1));
  left = -dyRight >= d0 && -dyRight <= d1 ? -xExt : std::min(xl(d0), xl(d1));
  return true;
}

// Calls visit(tx, ty) for every tile whose pixel centres the ellipse reaches (rows of tiles, each row only the
// columns its band of the ellipse spans: far fewer tiles than a square around a thin, slanted gaussian).
template <typename Visit>
inline void forEachTile(const Ellipse& e, int width, int height, int tilesX, int tilesY, Visit&& visit) {
  const float yExt = std::sqrt(e.r2 * e.C) + kSlack;
  const int pyLo = std::max(0, int(std::ceil(e.v - yExt - 0.5f))), pyHi = std::min(height - 1, int(std::floor(e.v + yExt - 0.5f)));
  if (pyLo > pyHi) return;
  for (int ty = pyLo / kTile; ty <= std::min(tilesY - 1, pyHi / kTile); ty++) {
    float left, right;
    if (!bandSpan(e, ty * kTile + 0.5f - e.v - kSlack, ty * kTile + kTile - 0.5f - e.v + kSlack, left, right)) continue;
    const int pxLo = std::max(0, int(std::ceil(e.u + left - kSlack - 0.5f))), pxHi = std::min(width - 1, int(std::floor(e.u + right + kSlack - 0.5f)));
    if (pxLo > pxHi) continue;
    for (int tx = pxLo / kTile; tx <= std::min(tilesX - 1, pxHi / kTile); tx++) visit(tx, ty);
  }
}

// Sorts a tile's keys (depth bits above the gaussian's index) into depth order with ties by index. They arrive in
// index order, so a stable sort on the depth bits alone gives that: least significant byte first, a counting pass
// per byte, skipped where every key has the same byte. Short lists: a comparison sort of the whole key. Returns
// whichever of keys/scratch holds the result.
const uint64_t* sortByDepth(uint64_t* keys, uint64_t* scratch, size_t n) {
  if (n < 64) {
    std::sort(keys, keys + n);
    return keys;
  }
  uint64_t *from = keys, *to = scratch;
  for (int shift = 32; shift < 64; shift += 8) {
    uint32_t start[256] = {0};
    for (size_t k = 0; k < n; k++) start[(from[k] >> shift) & 255]++;
    if (start[(from[0] >> shift) & 255] == n) continue;
    uint32_t sum = 0;
    for (uint32_t& bucket : start) {
      const uint32_t count = bucket;
      bucket = sum, sum += count;
    }
    for (size_t k = 0; k < n; k++) to[start[(from[k] >> shift) & 255]++] = from[k];
    std::swap(from, to);
  }
  return from;
}

// Projection's working memory, kept between calls on a thread (training projects the same scene over and over:
// megabytes a call otherwise allocated and faulted in anew).
struct Scratch {
  std::vector<Ellipse> ellipses;
  std::vector<std::vector<uint32_t>> counts, cursor;  // per thread, per tile
  std::vector<uint64_t> keys;
};

}  // namespace

void project(const Gaussians& gs, const Camera& cam, Projected& p) {
  const size_t n = gs.size();
  p.splats.resize(n);
  p.radius.assign(n, 0);
  const int tilesX = (cam.width + kTile - 1) / kTile, tilesY = (cam.height + kTile - 1) / kTile, tiles = tilesX * tilesY;
  static thread_local Scratch kept;
  Scratch& scratch = kept;  // the calling thread's, shared with the team below
  std::vector<Ellipse>& ellipses = scratch.ellipses;
  ellipses.resize(n);
  float centre[3];
  cam.center(centre);
  const int threads = omp_get_max_threads();
  // Per thread, how many (tile, gaussian) pairs each tile gets from that thread's share of the gaussians.
  std::vector<std::vector<uint32_t>>& counts = scratch.counts;
  counts.resize(threads);
  for (auto& each : counts) each.assign(tiles, 0);
#pragma omp parallel for schedule(static)
  for (long li = 0; li < long(n); li++) {
    const size_t i = size_t(li);
    ProjectionTerms t;
    float u, v, conic[3];
    if (!projectOne(gs, i, cam, t, u, v, conic)) continue;
    const float alpha0 = sigmoid(gs.opacity[i]);
    const float cutoff = cutoffOf(alpha0);
    if (!(cutoff < 0.f)) continue;  // alpha0 < 1/255: drawn nowhere
    const Ellipse e{u, v, conic[0], conic[1], conic[2], t.cov2[0], t.cov2[1], t.cov2[2], -2.f * cutoff};
    const float halfWidth = std::sqrt(e.r2 * e.A), halfHeight = std::sqrt(e.r2 * e.C);
    if (u + halfWidth < 0 || v + halfHeight < 0 || u - halfWidth >= cam.width || v - halfHeight >= cam.height) continue;
    uint32_t* count = counts[omp_get_thread_num()].data();
    bool any = false;
    forEachTile(e, cam.width, cam.height, tilesX, tilesY, [&](int tx, int ty) { count[ty * tilesX + tx]++, any = true; });
    if (!any) continue;
    ellipses[i] = e;
    ScreenSplat& s = p.splats[i];
    s.u = u, s.v = v;
    for (int k = 0; k < 3; k++) s.conic[k] = conic[k];
    s.alpha0 = alpha0, s.cutoff = cutoff, s.halfWidth = halfWidth, s.halfHeight = halfHeight, s.depth = t.pc[2];
    float rgb[3];
    colorOf(gs, i, centre, rgb);
    for (int k = 0; k < 3; k++) s.rgb[k] = std::max(0.f, rgb[k]);
    p.radius[i] = std::max(1, int(std::ceil(std::max(halfWidth, halfHeight))));
  }
  // Offsets per tile, and each thread's starting cursor inside every tile (threads fill their own slots, so the
  // list before sorting is the same for a given thread count).
  p.tileOffsets.assign(tiles + 1, 0);
  std::vector<std::vector<uint32_t>>& cursor = scratch.cursor;
  cursor.resize(threads);
  for (auto& each : cursor) each.resize(tiles);
  for (int tile = 0; tile < tiles; tile++) {
    uint32_t at = p.tileOffsets[tile];
    for (int th = 0; th < threads; th++) cursor[th][tile] = at, at += counts[th][tile];
    p.tileOffsets[tile + 1] = at;
  }
  // Keys: depth bits (positive floats order as integers) above the gaussian's index, so one integer sort per tile
  // gives depth order with ties by index.
  std::vector<uint64_t>& keys = scratch.keys;
  keys.resize(p.tileOffsets[tiles]);
#pragma omp parallel for schedule(static)
  for (long li = 0; li < long(n); li++) {
    const size_t i = size_t(li);
    if (!p.radius[i]) continue;
    uint32_t depthBits;
    std::memcpy(&depthBits, &p.splats[i].depth, 4);
    const uint64_t key = (uint64_t(depthBits) << 32) | uint32_t(i);
    uint32_t* at = cursor[omp_get_thread_num()].data();
    forEachTile(ellipses[i], cam.width, cam.height, tilesX, tilesY, [&](int tx, int ty) { keys[at[ty * tilesX + tx]++] = key; });
  }
  p.tileList.resize(keys.size());
#pragma omp parallel
  {
    std::vector<uint64_t> sorted;
#pragma omp for schedule(dynamic, 4)
    for (int tile = 0; tile < tiles; tile++) {
      const uint32_t begin = p.tileOffsets[tile], count = p.tileOffsets[tile + 1] - begin;
      if (sorted.size() < count) sorted.resize(count);
      const uint64_t* ordered = sortByDepth(keys.data() + begin, sorted.data(), count);
      for (uint32_t k = 0; k < count; k++) p.tileList[begin + k] = uint32_t(ordered[k]);
    }
  }
}

}  // namespace sr::train::detail
