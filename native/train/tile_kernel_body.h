// The tile kernels' bodies, compiled once per target by tile_kernels_*.cpp (always inlined into each pair, so
// every helper here is built for the target of the function it lands in). Include from those files only.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "train/raster_internal.h"

// The tile kernels pass eight-lane vectors between inlined helpers only: no function with a vector in its
// signature is ever called across the baseline/AVX2 boundary, so GCC's note on that ABI does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace sr::train::detail {
namespace {

#if defined(__GNUC__)
#define SR_INLINE inline __attribute__((always_inline))
#else
#define SR_INLINE inline
#endif

// Eight float (or int) lanes in GCC/Clang vector extensions: on AVX2 one register, on the baseline x86-64 target
// two SSE registers, elsewhere what the target has. Comparisons give int lanes of −1 (true) or 0.
typedef float v8f __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

SR_INLINE v8f select(v8i mask, v8f yes, v8f no) { return (v8f)(((v8i)yes & mask) | ((v8i)no & ~mask)); }
SR_INLINE float laneSum(v8f v) { return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7])); }
// Sums of adjacent lane pairs of x and y, within each half: x0+x1 x2+x3 y0+y1 y2+y3 x4+x5 x6+x7 y4+y5 y6+y7.
SR_INLINE v8f pairSums(v8f x, v8f y) {
  return __builtin_shufflevector(x, y, 0, 2, 8, 10, 4, 6, 12, 14) + __builtin_shufflevector(x, y, 1, 3, 9, 11, 5, 7, 13, 15);
}
// laneSum of each of eight vectors, as the lanes of one (each sum added in laneSum's order, so the same floats).
SR_INLINE v8f laneSums(v8f a, v8f b, v8f c, v8f d, v8f e, v8f f, v8f g, v8f h) {
  const v8f abcd = pairSums(pairSums(a, b), pairSums(c, d)), efgh = pairSums(pairSums(e, f), pairSums(g, h));
  return __builtin_shufflevector(abcd, efgh, 0, 1, 2, 3, 8, 9, 10, 11) + __builtin_shufflevector(abcd, efgh, 4, 5, 6, 7, 12, 13, 14, 15);
}

// exp(x) for x ≤ 0 in every lane (libm's expf works one value at a time): Cody–Waite reduction x = n·ln2 + r
// and a degree-6 polynomial on |r| ≤ ln2/2 (Cephes' expf), within 2 ulp of expf; below −87 it gives exp(−87)
// (≈ 1.6e-38: far under every cut-off, never a weight).
SR_INLINE v8f expNonPositive(v8f x) {
  x = select(x < -87.f, v8f{} - 87.f, x);
  const v8f n = (x * 1.44269504088896341f + 12582912.f) - 12582912.f;  // round to nearest (the 1.5·2²³ trick)
  const v8f r = (x - n * 0.693359375f) + n * 2.12194440e-4f;
  v8f q = v8f{} + 1.9875691500e-4f;
  q = q * r + 1.3981999507e-3f;
  q = q * r + 8.3334519073e-3f;
  q = q * r + 4.1665795894e-2f;
  q = q * r + 1.6666665459e-1f;
  q = q * r + 5.0000001201e-1f;
  const v8f poly = q * r * r + r + 1.f;
  const v8i bits = (__builtin_convertvector(n, v8i) + 127) << 23;
  return poly * (v8f)bits;
}

// How many places ahead in a tile's list the kernels prefetch a splat (and, backward, its gradient sums).
constexpr int kPrefetchAhead = 8;

// One tile's pixels as lanes: row-major, 16 per row (two vectors), kTile rows.
constexpr int kTilePixels = kTile * kTile, kTileVectors = kTilePixels / 8;
static_assert(kTile == 16, "a tile row is two vectors of eight lanes");
const v8f kLaneX = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f};

// The vectors of a tile (j = 2·row + half, top row at y0, left half at x0) that gaussian s's cut-off ellipse
// reaches: its rows, and in them both halves or only one (then every other j) — a small splat, most of them, costs
// half the lanes. j = first, first + step, … up to last; none when first > last.
struct Reach {
  int first, last, step;
};
SR_INLINE Reach reachOf(const ScreenSplat& s, int x0, int y0, int cols, int rows) {
  const int lo = std::max(0, int(std::ceil(s.v - s.halfHeight - kSlack - 0.5f)) - y0);
  const int hi = std::min(rows - 1, int(std::floor(s.v + s.halfHeight + kSlack - 0.5f)) - y0);
  const int leftmost = std::max(0, int(std::ceil(s.u - s.halfWidth - kSlack - 0.5f)) - x0);
  const int rightmost = std::min(cols - 1, int(std::floor(s.u + s.halfWidth + kSlack - 0.5f)) - x0);
  if (lo > hi || leftmost > rightmost) return {0, -1, 1};
  const int left = leftmost / 8, right = rightmost / 8;
  return {2 * lo + left, 2 * hi + right, left == right ? 2 : 1};
}

// The exponent of gaussian s at the eight pixel centres of vector j of a tile row (dy below the centre).
SR_INLINE v8f powerAt(const ScreenSplat& s, int x0, int j, float dy, v8f& dx) {
  dx = kLaneX + (float(x0 + 8 * (j & 1)) - s.u);
  return -0.5f * (s.conic[0] * dx * dx + s.conic[2] * (dy * dy)) - s.conic[1] * dy * dx;
}

SR_INLINE void forwardTile(const Projected& p, const Camera& cam, const float background[3], int tile, Render& out) {
  const int tilesX = (cam.width + kTile - 1) / kTile;
  const int x0 = (tile % tilesX) * kTile, y0 = (tile / tilesX) * kTile;
  const int cols = std::min(kTile, cam.width - x0), rows = std::min(kTile, cam.height - y0);
  v8f T[kTileVectors], cr[kTileVectors], cg[kTileVectors], cb[kTileVectors];
  v8i live[kTileVectors], last[kTileVectors];
  for (int j = 0; j < kTileVectors; j++) {
    T[j] = v8f{} + 1.f, cr[j] = cg[j] = cb[j] = v8f{}, last[j] = v8i{};
    const v8f x = kLaneX - 0.5f + float(8 * (j & 1));
    live[j] = (x < float(cols)) & (v8i{} + (j / 2 < rows ? -1 : 0));
  }
  int remaining = cols * rows;
  const uint32_t begin = p.tileOffsets[tile], end = p.tileOffsets[tile + 1];
  for (uint32_t k = begin; k < end && remaining > 0; k++) {
    // The splats are read in depth order, scattered in memory: ask for one a few ahead while this one is drawn.
    if (k + uint32_t(kPrefetchAhead) < end) __builtin_prefetch(&p.splats[p.tileList[k + kPrefetchAhead]]);
    const ScreenSplat& s = p.splats[p.tileList[k]];
    const v8i drawnUpTo = v8i{} + int32_t(k - begin + 1);
    const Reach reach = reachOf(s, x0, y0, cols, rows);
    v8i stopped = {};
    for (int j = reach.first; j <= reach.last; j += reach.step) {
      v8f dx;
      const v8f power = powerAt(s, x0, j, float(y0 + j / 2) + 0.5f - s.v, dx);
      v8f alpha = s.alpha0 * expNonPositive(power);
      alpha = select(alpha > kMaxAlpha, v8f{} + kMaxAlpha, alpha);
      const v8i hit = live[j] & (power <= 0.f) & (power >= s.cutoff) & (alpha >= kMinAlpha);
      const v8f next = T[j] * (1.f - alpha);
      const v8i stop = hit & (next < kMinTransmittance);
      const v8i draw = hit & ~stop;
      const v8f w = select(draw, alpha * T[j], v8f{});
      cr[j] += w * s.rgb[0], cg[j] += w * s.rgb[1], cb[j] += w * s.rgb[2];
      T[j] = select(draw, next, T[j]);
      last[j] = (drawnUpTo & draw) | (last[j] & ~draw);
      live[j] &= ~stop;
      stopped -= stop;
    }
    for (int l = 0; l < 8; l++) remaining -= stopped[l];
  }
  for (int row = 0; row < rows; row++)
    for (int x = 0; x < cols; x++) {
      const int j = 2 * row + x / 8, l = x % 8;
      const size_t pi = size_t(y0 + row) * cam.width + x0 + x;
      out.rgb[3 * pi] = cr[j][l] + T[j][l] * background[0], out.rgb[3 * pi + 1] = cg[j][l] + T[j][l] * background[1];
      out.rgb[3 * pi + 2] = cb[j][l] + T[j][l] * background[2];
      out.transmittance[pi] = T[j][l];
      out.lastIndex[pi] = uint32_t(last[j][l]);
    }
}

// Screen-space gradients of one tile, added into acc (9 per gaussian: du dv da db dc dalpha0 dr dg db).
SR_INLINE void backwardTile(const Projected& p, const Camera& cam, const float background[3], const Render& fwd, const std::vector<float>& dLdPixel,
                            int tile, float* acc) {
  const int tilesX = (cam.width + kTile - 1) / kTile;
  const int x0 = (tile % tilesX) * kTile, y0 = (tile / tilesX) * kTile;
  const int cols = std::min(kTile, cam.width - x0), rows = std::min(kTile, cam.height - y0);
  v8f T[kTileVectors], behind[3][kTileVectors], dC[3][kTileVectors];
  v8i last[kTileVectors];
  int32_t deepest = 0;
  for (int j = 0; j < kTileVectors; j++)
    for (int l = 0; l < 8; l++) {
      const int x = 8 * (j & 1) + l, row = j / 2;
      const bool inside = x < cols && row < rows;
      const size_t pi = inside ? size_t(y0 + row) * cam.width + x0 + x : 0;
      T[j][l] = inside ? fwd.transmittance[pi] : 1.f;
      last[j][l] = inside ? int32_t(fwd.lastIndex[pi]) : 0;
      deepest = std::max(deepest, last[j][l]);
      for (int ch = 0; ch < 3; ch++) behind[ch][j][l] = T[j][l] * background[ch], dC[ch][j][l] = inside ? dLdPixel[3 * pi + ch] : 0.f;
    }
  const uint32_t begin = p.tileOffsets[tile];
  for (int32_t k = deepest; k-- > 0;) {
    if (k >= kPrefetchAhead) {
      const uint32_t ahead = p.tileList[begin + k - kPrefetchAhead];
      __builtin_prefetch(&p.splats[ahead]);
      __builtin_prefetch(acc + 9 * size_t(ahead), 1);
      __builtin_prefetch(acc + 9 * size_t(ahead) + 8, 1);
    }
    const uint32_t i = p.tileList[begin + k];
    const ScreenSplat& s = p.splats[i];
    const Reach reach = reachOf(s, x0, y0, cols, rows);
    v8f gu = {}, gv = {}, ga = {}, gb = {}, gc = {}, gAlpha = {}, gr = {}, gg = {}, gbl = {};
    for (int j = reach.first; j <= reach.last; j += reach.step) {
      const float dy = float(y0 + j / 2) + 0.5f - s.v;
      v8f dx;
      const v8f power = powerAt(s, x0, j, dy, dx);
      const v8f gauss = expNonPositive(power);
      v8f alpha = s.alpha0 * gauss;
      const v8i unclamped = alpha <= kMaxAlpha;
      alpha = select(unclamped, alpha, v8f{} + kMaxAlpha);
      const v8i hit = (k < last[j]) & (power <= 0.f) & (power >= s.cutoff) & (alpha >= kMinAlpha);
      const v8f oneMinus = 1.f - alpha;
      const v8f Ti = T[j] / oneMinus, weight = select(hit, alpha * Ti, v8f{});
      const v8f dAlpha = dC[0][j] * (Ti * s.rgb[0] - behind[0][j] / oneMinus) + dC[1][j] * (Ti * s.rgb[1] - behind[1][j] / oneMinus) +
                         dC[2][j] * (Ti * s.rgb[2] - behind[2][j] / oneMinus);
      gr += dC[0][j] * weight, gg += dC[1][j] * weight, gbl += dC[2][j] * weight;
      behind[0][j] += s.rgb[0] * weight, behind[1][j] += s.rgb[1] * weight, behind[2][j] += s.rgb[2] * weight;
      T[j] = select(hit, Ti, T[j]);
      // Where alpha is clamped at its maximum, no gradient flows through it.
      const v8f dA = select(hit & unclamped, dAlpha, v8f{});
      gAlpha += dA * gauss;
      const v8f dPower = dA * alpha;
      gu += dPower * (s.conic[0] * dx + s.conic[1] * dy);
      gv += dPower * (s.conic[1] * dx + s.conic[2] * dy);
      ga += dPower * (-0.5f * dx * dx);
      gb += dPower * (-dy * dx);
      gc += dPower * (-0.5f * dy * dy);
    }
    float* a = acc + 9 * size_t(i);
    v8f sums;
    __builtin_memcpy(&sums, a, sizeof sums);
    sums += laneSums(gu, gv, ga, gb, gc, gAlpha, gr, gg);
    __builtin_memcpy(a, &sums, sizeof sums);
    a[8] += laneSum(gbl);
  }
}


}  // namespace
}  // namespace sr::train::detail
