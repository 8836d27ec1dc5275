#include "train/raster.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include <omp.h>

// The tile kernels pass eight-lane vectors between inlined helpers only: no function with a vector in its
// signature is ever called across the baseline/AVX2 boundary, so GCC's note on that ABI does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace sr::train {
namespace {

// A value with its derivatives along x y z (forward-mode differentiation of the SH basis).
struct Dual {
  float v, d[3];
};
inline Dual operator+(Dual a, const Dual& b) {
  a.v += b.v;
  for (int k = 0; k < 3; k++) a.d[k] += b.d[k];
  return a;
}
inline Dual operator-(Dual a, const Dual& b) {
  a.v -= b.v;
  for (int k = 0; k < 3; k++) a.d[k] -= b.d[k];
  return a;
}
inline Dual operator*(const Dual& a, const Dual& b) {
  Dual r{a.v * b.v, {}};
  for (int k = 0; k < 3; k++) r.d[k] = a.d[k] * b.v + a.v * b.d[k];
  return r;
}
inline Dual operator*(float s, Dual a) {
  a.v *= s;
  for (int k = 0; k < 3; k++) a.d[k] *= s;
  return a;
}

// Unit view direction from the camera centre to gaussian i, and the distance.
inline float viewDirection(const Gaussians& gs, size_t i, const float centre[3], float dir[3]) {
  for (int k = 0; k < 3; k++) dir[k] = gs.mean[3 * i + k] - centre[k];
  const float len = std::sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
  const float inv = len > 1e-12f ? 1.f / len : 0.f;
  for (int k = 0; k < 3; k++) dir[k] *= inv;
  return len;
}

inline float sigmoid(float x) { return 1.f / (1.f + std::exp(-x)); }

// Rotation matrix (row-major) of a unit quaternion (w x y z).
inline void quatToMat(const float q[4], float R[9]) {
  const float w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
}

inline void normalizedQuat(const float* q, float out[4], float& norm) {
  norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const float inv = norm > 1e-12f ? 1.f / norm : 0.f;
  for (int k = 0; k < 4; k++) out[k] = q[k] * inv;
  if (norm <= 1e-12f) out[0] = 1.f;
}

// Σ (3×3 row-major) = (R S)(R S)ᵀ, and M = R S.
inline void covariance3d(const float* quat, const float* logScale, float Sigma[9], float M[9], float Rg[9], float s[3]) {
  float q[4], norm;
  normalizedQuat(quat, q, norm);
  quatToMat(q, Rg);
  for (int k = 0; k < 3; k++) s[k] = std::exp(logScale[k]);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) M[r * 3 + c] = Rg[r * 3 + c] * s[c];
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) Sigma[r * 3 + c] = M[r * 3] * M[c * 3] + M[r * 3 + 1] * M[c * 3 + 1] + M[r * 3 + 2] * M[c * 3 + 2];
}

struct ProjectionTerms {
  float pc[3];
  float T[6];  // J W, 2×3
  float Sigma[9], M[9], Rg[9], s[3];
  float cov2[3];  // A B C
};

// Projects one gaussian; false when it is behind the camera or degenerate.
inline bool projectOne(const Gaussians& gs, size_t i, const Camera& cam, ProjectionTerms& p, float& u, float& v, float conic[3]) {
  const float* m = &gs.mean[3 * i];
  for (int r = 0; r < 3; r++) p.pc[r] = cam.R[r * 3] * m[0] + cam.R[r * 3 + 1] * m[1] + cam.R[r * 3 + 2] * m[2] + cam.t[r];
  const float x = p.pc[0], y = p.pc[1], z = p.pc[2];
  if (z < std::max(0.01f, cam.near)) return false;
  // Centres beyond 1.3× the half field of view are not drawn (3DGS clamps its Jacobian there, as our thumbnail
  // renderer does): a gaussian beside the camera, near its image plane (a sky splat off to the side), would
  // otherwise project to a covariance of millions of pixels and fog the whole view.
  const float limX = kFrustumMargin * std::max(cam.cx, float(cam.width) - cam.cx) / cam.fx;
  const float limY = kFrustumMargin * std::max(cam.cy, float(cam.height) - cam.cy) / cam.fy;
  if (std::fabs(x) > limX * z || std::fabs(y) > limY * z) return false;
  const float iz = 1.f / z, iz2 = iz * iz;
  const float J[6] = {cam.fx * iz, 0, -cam.fx * x * iz2, 0, cam.fy * iz, -cam.fy * y * iz2};
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 3; c++) p.T[r * 3 + c] = J[r * 3] * cam.R[c] + J[r * 3 + 1] * cam.R[3 + c] + J[r * 3 + 2] * cam.R[6 + c];
  covariance3d(&gs.quat[4 * i], &gs.logScale[3 * i], p.Sigma, p.M, p.Rg, p.s);
  float TS[6];
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 3; c++) TS[r * 3 + c] = p.T[r * 3] * p.Sigma[c] + p.T[r * 3 + 1] * p.Sigma[3 + c] + p.T[r * 3 + 2] * p.Sigma[6 + c];
  const float A = TS[0] * p.T[0] + TS[1] * p.T[1] + TS[2] * p.T[2] + kLowPass;
  const float B = TS[0] * p.T[3] + TS[1] * p.T[4] + TS[2] * p.T[5];
  const float C = TS[3] * p.T[3] + TS[4] * p.T[4] + TS[5] * p.T[5] + kLowPass;
  const float det = A * C - B * B;
  if (!(det > 1e-12f)) return false;
  p.cov2[0] = A, p.cov2[1] = B, p.cov2[2] = C;
  conic[0] = C / det, conic[1] = -B / det, conic[2] = A / det;
  u = cam.fx * x * iz + cam.cx;
  v = cam.fy * y * iz + cam.cy;
  return std::isfinite(u) && std::isfinite(v) && std::isfinite(conic[0]) && std::isfinite(conic[1]) && std::isfinite(conic[2]);
}

// Whole pixels of slack around a cut-off ellipse when choosing tiles and rows: rounding must never leave out a
// pixel the per-pixel test would draw (extra pixels are harmless: the test rejects them).
constexpr float kSlack = 0.01f;

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

void project(const Gaussians& gs, const Camera& cam, Projected& p) {
  const size_t n = gs.size();
  p.splats.resize(n);
  p.radius.assign(n, 0);
  const int tilesX = (cam.width + kTile - 1) / kTile, tilesY = (cam.height + kTile - 1) / kTile, tiles = tilesX * tilesY;
  std::vector<Ellipse> ellipses(n);
  float centre[3];
  cam.center(centre);
  const int threads = omp_get_max_threads();
  // Per thread, how many (tile, gaussian) pairs each tile gets from that thread's share of the gaussians.
  std::vector<std::vector<uint32_t>> counts(threads, std::vector<uint32_t>(tiles, 0));
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
    s.alpha0 = alpha0, s.cutoff = cutoff, s.halfHeight = halfHeight, s.depth = t.pc[2];
    float rgb[3];
    shColor(gs, i, centre, rgb);
    for (int k = 0; k < 3; k++) s.rgb[k] = std::max(0.f, rgb[k]);
    p.radius[i] = std::max(1, int(std::ceil(std::max(halfWidth, halfHeight))));
  }
  // Offsets per tile, and each thread's starting cursor inside every tile (threads fill their own slots, so the
  // list before sorting is the same for a given thread count).
  p.tileOffsets.assign(tiles + 1, 0);
  std::vector<std::vector<uint32_t>> cursor(threads, std::vector<uint32_t>(tiles, 0));
  for (int tile = 0; tile < tiles; tile++) {
    uint32_t at = p.tileOffsets[tile];
    for (int th = 0; th < threads; th++) cursor[th][tile] = at, at += counts[th][tile];
    p.tileOffsets[tile + 1] = at;
  }
  // Keys: depth bits (positive floats order as integers) above the gaussian's index, so one integer sort per tile
  // gives depth order with ties by index.
  std::vector<uint64_t> keys(p.tileOffsets[tiles]);
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
#pragma omp parallel for schedule(dynamic, 4)
  for (int tile = 0; tile < tiles; tile++) {
    std::sort(keys.begin() + p.tileOffsets[tile], keys.begin() + p.tileOffsets[tile + 1]);
    for (uint32_t k = p.tileOffsets[tile]; k < p.tileOffsets[tile + 1]; k++) p.tileList[k] = uint32_t(keys[k]);
  }
}

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

// One tile's pixels as lanes: row-major, 16 per row (two vectors), kTile rows.
constexpr int kTilePixels = kTile * kTile, kTileVectors = kTilePixels / 8;
static_assert(kTile == 16, "a tile row is two vectors of eight lanes");
const v8f kLaneX = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f};

// The rows of a tile (0..rows-1, top at y0) that gaussian s's cut-off ellipse reaches.
SR_INLINE void rowsOf(const ScreenSplat& s, int y0, int rows, int& lo, int& hi) {
  lo = std::max(0, int(std::ceil(s.v - s.halfHeight - kSlack - 0.5f)) - y0);
  hi = std::min(rows - 1, int(std::floor(s.v + s.halfHeight + kSlack - 0.5f)) - y0);
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
    const ScreenSplat& s = p.splats[p.tileList[k]];
    const v8i drawnUpTo = v8i{} + int32_t(k - begin + 1);
    int lo, hi;
    rowsOf(s, y0, rows, lo, hi);
    v8i stopped = {};
    for (int j = 2 * lo; j < 2 * hi + 2; j++) {
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
    const uint32_t i = p.tileList[begin + k];
    const ScreenSplat& s = p.splats[i];
    int lo, hi;
    rowsOf(s, y0, rows, lo, hi);
    v8f gu = {}, gv = {}, ga = {}, gb = {}, gc = {}, gAlpha = {}, gr = {}, gg = {}, gbl = {};
    for (int j = 2 * lo; j < 2 * hi + 2; j++) {
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
    a[0] += laneSum(gu), a[1] += laneSum(gv), a[2] += laneSum(ga), a[3] += laneSum(gb), a[4] += laneSum(gc);
    a[5] += laneSum(gAlpha), a[6] += laneSum(gr), a[7] += laneSum(gg), a[8] += laneSum(gbl);
  }
}

// The same two kernels compiled for the baseline target and, on x86-64, for AVX2 + FMA (chosen at run time).
void forwardTileBaseline(const Projected& p, const Camera& cam, const float bg[3], int tile, Render& out) { forwardTile(p, cam, bg, tile, out); }
void backwardTileBaseline(const Projected& p, const Camera& cam, const float bg[3], const Render& fwd, const std::vector<float>& dL, int tile, float* acc) {
  backwardTile(p, cam, bg, fwd, dL, tile, acc);
}
#if defined(__x86_64__) && defined(__GNUC__)
#define SR_HAVE_AVX2_KERNEL 1
__attribute__((target("avx2,fma"))) void forwardTileAvx2(const Projected& p, const Camera& cam, const float bg[3], int tile, Render& out) {
  forwardTile(p, cam, bg, tile, out);
}
__attribute__((target("avx2,fma"))) void backwardTileAvx2(const Projected& p, const Camera& cam, const float bg[3], const Render& fwd, const std::vector<float>& dL,
                                                          int tile, float* acc) {
  backwardTile(p, cam, bg, fwd, dL, tile, acc);
}
bool cpuHasAvx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
#else
bool cpuHasAvx2() { return false; }
#endif

RasterKernel activeKernel = cpuHasAvx2() ? RasterKernel::Avx2 : RasterKernel::Baseline;

}  // namespace

RasterKernel rasterKernel() { return activeKernel; }

bool setRasterKernel(RasterKernel kernel) {
  if (kernel == RasterKernel::Avx2 && !cpuHasAvx2()) return false;
  activeKernel = kernel;
  return true;
}

const char* rasterKernelName(RasterKernel kernel) { return kernel == RasterKernel::Avx2 ? "AVX2+FMA" : "baseline"; }

void shColor(const Gaussians& gs, size_t i, const float centre[3], float rgb[3]) {
  for (int ch = 0; ch < 3; ch++) rgb[ch] = 0.5f + kSHC0 * gs.color[3 * i + ch];
  if (gs.shDegree < 1) return;
  float dir[3], basis[kShRest];
  viewDirection(gs, i, centre, dir);
  shBasis(dir[0], dir[1], dir[2], gs.shDegree, basis);
  const float* sh = &gs.sh[size_t(3 * kShRest) * i];
  for (int k = 0; k < shRestOf(gs.shDegree); k++)
    for (int ch = 0; ch < 3; ch++) rgb[ch] += basis[k] * sh[3 * k + ch];
}

void render(const Gaussians& gs, const Camera& cam, const float background[3], Render& out) {
  out.width = cam.width, out.height = cam.height;
  project(gs, cam, out.proj);
  const size_t pixels = size_t(cam.width) * cam.height;
  out.rgb.resize(3 * pixels);
  out.transmittance.resize(pixels);
  out.lastIndex.resize(pixels);
  const int tiles = ((cam.width + kTile - 1) / kTile) * ((cam.height + kTile - 1) / kTile);
  const bool avx2 = activeKernel == RasterKernel::Avx2;
#pragma omp parallel for schedule(dynamic, 2)
  for (int tile = 0; tile < tiles; tile++) {
#ifdef SR_HAVE_AVX2_KERNEL
    if (avx2) {
      forwardTileAvx2(out.proj, cam, background, tile, out);
      continue;
    }
#endif
    (void)avx2;
    forwardTileBaseline(out.proj, cam, background, tile, out);
  }
}

void backward(const Gaussians& gs, const Camera& cam, const float background[3], const Render& fwd, const std::vector<float>& dLdPixel,
              Gradients& grads) {
  const Projected& p = fwd.proj;
  const size_t n = gs.size();
  const int threads = omp_get_max_threads();
  // Screen-space gradients per run of tiles (below): du dv da db dc dalpha0 dr dg db.
  std::vector<std::vector<float>> local(threads, std::vector<float>(9 * n, 0.f));
  const int tiles = ((cam.width + kTile - 1) / kTile) * ((cam.height + kTile - 1) / kTile);
  const bool avx2 = activeKernel == RasterKernel::Avx2;
  // Each thread takes one run of neighbouring tiles of about equal work (pairs in their lists, and a little per
  // tile), fixed by the data and the thread count: the float sums in each thread's buffer then happen in the same
  // order every run (a dynamic schedule would change it), and no thread waits long for the others.
  std::vector<int> firstTile(threads + 1, tiles);
  firstTile[0] = 0;
  {
    const double total = double(p.tileOffsets[tiles]) + 16.0 * tiles;
    double done = 0;
    int th = 1;
    for (int tile = 0; tile < tiles && th < threads; tile++) {
      done += double(p.tileOffsets[tile + 1] - p.tileOffsets[tile]) + 16.0;
      while (th < threads && done >= total * th / threads) firstTile[th++] = tile + 1;
    }
  }
#pragma omp parallel for schedule(static, 1)
  for (int th = 0; th < threads; th++) {
    float* acc = local[th].data();  // by run, not by thread: the same sums whichever thread runs it
    for (int tile = firstTile[th]; tile < firstTile[th + 1]; tile++) {
#ifdef SR_HAVE_AVX2_KERNEL
      if (avx2) {
        backwardTileAvx2(p, cam, background, fwd, dLdPixel, tile, acc);
        continue;
      }
#endif
      (void)avx2;
      backwardTileBaseline(p, cam, background, fwd, dLdPixel, tile, acc);
    }
  }
  if (grads.g.size() != n) {
    grads.g.resize(n);
    std::fill(grads.g.mean.begin(), grads.g.mean.end(), 0.f), std::fill(grads.g.logScale.begin(), grads.g.logScale.end(), 0.f);
    std::fill(grads.g.quat.begin(), grads.g.quat.end(), 0.f), std::fill(grads.g.opacity.begin(), grads.g.opacity.end(), 0.f);
    std::fill(grads.g.color.begin(), grads.g.color.end(), 0.f), std::fill(grads.g.sh.begin(), grads.g.sh.end(), 0.f);
  }
  if (grads.g.sh.size() != gs.sh.size()) grads.g.sh.assign(gs.sh.size(), 0.f);
  float centre[3];
  cam.center(centre);
  if (grads.meanScreen.size() != n) grads.meanScreen.assign(n, 0.f);
#pragma omp parallel for schedule(static)
  for (long li = 0; li < long(n); li++) {
    const size_t i = size_t(li);
    if (!p.radius[i]) continue;
    float s9[9] = {0};
    for (int t = 0; t < threads; t++)
      for (int k = 0; k < 9; k++) s9[k] += local[t][9 * i + k];
    const float du = s9[0], dv = s9[1];
    grads.meanScreen[i] = std::sqrt(du * du + dv * dv);
    // Colour (SH; the clamp at 0 passes no gradient) and opacity.
    float rgb[3], dRgb[3];
    shColor(gs, i, centre, rgb);
    for (int ch = 0; ch < 3; ch++) {
      dRgb[ch] = rgb[ch] > 0.f ? s9[6 + ch] : 0.f;
      grads.g.color[3 * i + ch] += kSHC0 * dRgb[ch];
    }
    if (gs.shDegree > 0) {
      // Coefficients get basis·dRgb; the mean gets the basis' derivative along the view direction.
      float dir[3];
      const float len = viewDirection(gs, i, centre, dir);
      Dual x{dir[0], {1, 0, 0}}, y{dir[1], {0, 1, 0}}, z{dir[2], {0, 0, 1}}, basis[kShRest];
      shBasis(x, y, z, gs.shDegree, basis);
      const float* sh = &gs.sh[size_t(3 * kShRest) * i];
      float* gsh = &grads.g.sh[size_t(3 * kShRest) * i];
      float dDir[3] = {0, 0, 0};
      for (int k = 0; k < shRestOf(gs.shDegree); k++) {
        float weight = 0.f;
        for (int ch = 0; ch < 3; ch++) gsh[3 * k + ch] += basis[k].v * dRgb[ch], weight += sh[3 * k + ch] * dRgb[ch];
        for (int e = 0; e < 3; e++) dDir[e] += weight * basis[k].d[e];
      }
      // dir = v / |v|: dv = (dDir − dir (dir·dDir)) / |v|.
      if (len > 1e-12f) {
        const float dot = dDir[0] * dir[0] + dDir[1] * dir[1] + dDir[2] * dir[2];
        for (int e = 0; e < 3; e++) grads.g.mean[3 * i + e] += (dDir[e] - dir[e] * dot) / len;
      }
    }
    const float a0 = p.splats[i].alpha0;
    grads.g.opacity[i] += s9[5] * a0 * (1.f - a0);
    // Conic → 2D covariance: dΣ2 = −K G K with G the gradient on the symmetric conic K.
    ProjectionTerms t;
    float u, v, conic[3];
    projectOne(gs, i, cam, t, u, v, conic);
    const float K[4] = {conic[0], conic[1], conic[1], conic[2]};
    const float G[4] = {s9[2], 0.5f * s9[3], 0.5f * s9[3], s9[4]};
    float KG[4], dS2[4];
    KG[0] = K[0] * G[0] + K[1] * G[2], KG[1] = K[0] * G[1] + K[1] * G[3];
    KG[2] = K[2] * G[0] + K[3] * G[2], KG[3] = K[2] * G[1] + K[3] * G[3];
    dS2[0] = -(KG[0] * K[0] + KG[1] * K[2]), dS2[1] = -(KG[0] * K[1] + KG[1] * K[3]);
    dS2[2] = -(KG[2] * K[0] + KG[3] * K[2]), dS2[3] = -(KG[2] * K[1] + KG[3] * K[3]);
    // Σ2 = T Σ Tᵀ: dΣ = Tᵀ dΣ2 T, dT = 2 dΣ2 T Σ.
    float dSigma[9], dT[6], dS2T[6];
    for (int r = 0; r < 2; r++)
      for (int c = 0; c < 3; c++) dS2T[r * 3 + c] = dS2[r * 2] * t.T[c] + dS2[r * 2 + 1] * t.T[3 + c];
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) dSigma[r * 3 + c] = t.T[r] * dS2T[c] + t.T[3 + r] * dS2T[3 + c];
    for (int r = 0; r < 2; r++)
      for (int c = 0; c < 3; c++)
        dT[r * 3 + c] = 2.f * (dS2T[r * 3] * t.Sigma[c] + dS2T[r * 3 + 1] * t.Sigma[3 + c] + dS2T[r * 3 + 2] * t.Sigma[6 + c]);
    // T = J W: dJ = dT Wᵀ.
    float dJ[6];
    for (int r = 0; r < 2; r++)
      for (int c = 0; c < 3; c++) dJ[r * 3 + c] = dT[r * 3] * cam.R[c * 3] + dT[r * 3 + 1] * cam.R[c * 3 + 1] + dT[r * 3 + 2] * cam.R[c * 3 + 2];
    const float x = t.pc[0], y = t.pc[1], z = t.pc[2], iz = 1.f / z, iz2 = iz * iz, iz3 = iz2 * iz;
    float dpc[3] = {0, 0, 0};
    dpc[0] += du * cam.fx * iz, dpc[2] -= du * cam.fx * x * iz2;
    dpc[1] += dv * cam.fy * iz, dpc[2] -= dv * cam.fy * y * iz2;
    dpc[2] -= dJ[0] * cam.fx * iz2;
    dpc[0] -= dJ[2] * cam.fx * iz2, dpc[2] += dJ[2] * 2.f * cam.fx * x * iz3;
    dpc[2] -= dJ[4] * cam.fy * iz2;
    dpc[1] -= dJ[5] * cam.fy * iz2, dpc[2] += dJ[5] * 2.f * cam.fy * y * iz3;
    for (int c = 0; c < 3; c++) grads.g.mean[3 * i + c] += cam.R[c] * dpc[0] + cam.R[3 + c] * dpc[1] + cam.R[6 + c] * dpc[2];
    // Σ = M Mᵀ, M = Rg S: dM = 2 dΣ M.
    float dM[9];
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++)
        dM[r * 3 + c] = 2.f * (dSigma[r * 3] * t.M[c] + dSigma[r * 3 + 1] * t.M[3 + c] + dSigma[r * 3 + 2] * t.M[6 + c]);
    float dRg[9];
    for (int k = 0; k < 3; k++) {
      float dScale = 0.f;
      for (int r = 0; r < 3; r++) {
        dScale += t.Rg[r * 3 + k] * dM[r * 3 + k];
        dRg[r * 3 + k] = dM[r * 3 + k] * t.s[k];
      }
      grads.g.logScale[3 * i + k] += dScale * t.s[k];
    }
    float q[4], norm;
    normalizedQuat(&gs.quat[4 * i], q, norm);
    const float w = q[0], qx = q[1], qy = q[2], qz = q[3];
    const float dRdw[9] = {0, -2 * qz, 2 * qy, 2 * qz, 0, -2 * qx, -2 * qy, 2 * qx, 0};
    const float dRdx[9] = {0, 2 * qy, 2 * qz, 2 * qy, -4 * qx, -2 * w, 2 * qz, 2 * w, -4 * qx};
    const float dRdy[9] = {-4 * qy, 2 * qx, 2 * w, 2 * qx, 0, 2 * qz, -2 * w, 2 * qz, -4 * qy};
    const float dRdz[9] = {-4 * qz, -2 * w, 2 * qx, 2 * w, -4 * qz, 2 * qy, 2 * qx, 2 * qy, 0};
    const float* dR[4] = {dRdw, dRdx, dRdy, dRdz};
    float dq[4];
    for (int k = 0; k < 4; k++) {
      dq[k] = 0.f;
      for (int e = 0; e < 9; e++) dq[k] += dRg[e] * dR[k][e];
    }
    // Through the normalisation q = q_raw / |q_raw|.
    const float dot = dq[0] * q[0] + dq[1] * q[1] + dq[2] * q[2] + dq[3] * q[3];
    const float inv = norm > 1e-12f ? 1.f / norm : 0.f;
    for (int k = 0; k < 4; k++) grads.g.quat[4 * i + k] += (dq[k] - q[k] * dot) * inv;
  }
}

void renderReference(const Gaussians& gs, const Camera& cam, const float background[3], std::vector<float>& rgb) {
  const size_t n = gs.size();
  struct Entry {
    float u, v, conic[3], depth, rgb[3], alpha0;
    size_t index;
  };
  std::vector<Entry> entries;
  float centre[3];
  cam.center(centre);
  for (size_t i = 0; i < n; i++) {
    ProjectionTerms t;
    Entry e;
    if (!projectOne(gs, i, cam, t, e.u, e.v, e.conic)) continue;
    e.depth = t.pc[2];
    e.index = i;
    float colour[3];
    shColor(gs, i, centre, colour);
    for (int k = 0; k < 3; k++) e.rgb[k] = std::max(0.f, colour[k]);
    e.alpha0 = 1.f / (1.f + std::exp(-gs.opacity[i]));
    entries.push_back(e);
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.depth < b.depth || (a.depth == b.depth && a.index < b.index); });
  rgb.assign(size_t(3) * cam.width * cam.height, 0.f);
  for (int y = 0; y < cam.height; y++)
    for (int x = 0; x < cam.width; x++) {
      float T = 1.f, c[3] = {0, 0, 0};
      for (const Entry& e : entries) {
        const float dx = x + 0.5f - e.u, dy = y + 0.5f - e.v;
        const float power = -0.5f * (e.conic[0] * dx * dx + e.conic[2] * dy * dy) - e.conic[1] * dx * dy;
        // Drawn inside 3σ only, and only where alpha reaches 1/255.
        if (power > 0.f || power < kCutoffPower) continue;
        const float alpha = std::min(kMaxAlpha, e.alpha0 * std::exp(power));
        if (alpha < kMinAlpha) continue;
        const float next = T * (1.f - alpha);
        if (next < kMinTransmittance) break;
        for (int k = 0; k < 3; k++) c[k] += alpha * T * e.rgb[k];
        T = next;
      }
      const size_t pi = size_t(y) * cam.width + x;
      for (int k = 0; k < 3; k++) rgb[3 * pi + k] = c[k] + T * background[k];
    }
}

Camera scaledCamera(Camera c, float factor) {
  const int width = std::max(1, int(std::lround(c.width * factor))), height = std::max(1, int(std::lround(c.height * factor)));
  const float sx = float(width) / float(c.width), sy = float(height) / float(c.height);
  c.fx *= sx, c.cx *= sx, c.fy *= sy, c.cy *= sy;
  c.width = width, c.height = height;
  return c;
}

}  // namespace sr::train
