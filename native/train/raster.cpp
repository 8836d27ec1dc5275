#include "train/raster.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <omp.h>

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
inline bool projectOne(const Gaussians& gs, size_t i, const Camera& cam, ProjectionTerms& p, float& u, float& v, float conic[3], float& radius) {
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
  const float mid = 0.5f * (A + C);
  const float lambda = mid + std::sqrt(std::max(0.1f, mid * mid - det));
  radius = std::ceil(3.f * std::sqrt(lambda));
  u = cam.fx * x * iz + cam.cx;
  v = cam.fy * y * iz + cam.cy;
  return std::isfinite(u) && std::isfinite(v) && std::isfinite(conic[0]) && std::isfinite(conic[1]) && std::isfinite(conic[2]);
}

inline void tileRect(float u, float v, float radius, int tilesX, int tilesY, int rect[4]) {
  rect[0] = std::max(0, int(std::floor((u - radius) / kTile)));
  rect[1] = std::max(0, int(std::floor((v - radius) / kTile)));
  rect[2] = std::min(tilesX - 1, int(std::floor((u + radius) / kTile)));
  rect[3] = std::min(tilesY - 1, int(std::floor((v + radius) / kTile)));
}

void project(const Gaussians& gs, const Camera& cam, Projected& p) {
  const size_t n = gs.size();
  p.uv.assign(2 * n, 0.f), p.conic.assign(3 * n, 0.f), p.depth.assign(n, 0.f), p.rgb.assign(3 * n, 0.f), p.alpha0.assign(n, 0.f);
  p.minPower.assign(n, 0.f);
  p.radius.assign(n, 0);
  const int tilesX = (cam.width + kTile - 1) / kTile, tilesY = (cam.height + kTile - 1) / kTile;
  std::vector<int> rects(4 * n, 0);
  float centre[3];
  cam.center(centre);
#pragma omp parallel for schedule(static)
  for (long li = 0; li < long(n); li++) {
    const size_t i = size_t(li);
    ProjectionTerms t;
    float u, v, conic[3], radius;
    if (!projectOne(gs, i, cam, t, u, v, conic, radius)) continue;
    int* rect = &rects[4 * i];
    tileRect(u, v, radius, tilesX, tilesY, rect);
    if (rect[0] > rect[2] || rect[1] > rect[3] || u + radius < 0 || v + radius < 0 || u - radius >= cam.width || v - radius >= cam.height) continue;
    p.uv[2 * i] = u, p.uv[2 * i + 1] = v;
    for (int k = 0; k < 3; k++) p.conic[3 * i + k] = conic[k];
    p.depth[i] = t.pc[2];
    p.radius[i] = int(radius);
    float rgb[3];
    shColor(gs, i, centre, rgb);
    for (int k = 0; k < 3; k++) p.rgb[3 * i + k] = std::max(0.f, rgb[k]);
    p.alpha0[i] = sigmoid(gs.opacity[i]);
    p.minPower[i] = std::log(kMinAlpha / std::max(p.alpha0[i], 1e-30f));
  }
  // Bin by tile: counts, offsets, fill, then each tile's list in depth order.
  const int tiles = tilesX * tilesY;
  std::vector<uint32_t> counts(tiles + 1, 0);
  for (size_t i = 0; i < n; i++) {
    if (!p.radius[i]) continue;
    const int* r = &rects[4 * i];
    for (int ty = r[1]; ty <= r[3]; ty++)
      for (int tx = r[0]; tx <= r[2]; tx++) counts[ty * tilesX + tx + 1]++;
  }
  std::partial_sum(counts.begin(), counts.end(), counts.begin());
  p.tileOffsets = counts;
  p.tileList.assign(counts[tiles], 0);
  std::vector<uint32_t> cursor(counts.begin(), counts.end() - 1);
  for (size_t i = 0; i < n; i++) {
    if (!p.radius[i]) continue;
    const int* r = &rects[4 * i];
    for (int ty = r[1]; ty <= r[3]; ty++)
      for (int tx = r[0]; tx <= r[2]; tx++) p.tileList[cursor[ty * tilesX + tx]++] = uint32_t(i);
  }
#pragma omp parallel for schedule(dynamic, 4)
  for (int tile = 0; tile < tiles; tile++) {
    auto begin = p.tileList.begin() + p.tileOffsets[tile], end = p.tileList.begin() + p.tileOffsets[tile + 1];
    std::sort(begin, end, [&](uint32_t a, uint32_t b) { return p.depth[a] < p.depth[b] || (p.depth[a] == p.depth[b] && a < b); });
  }
}

// Alpha of gaussian i at a pixel centre, and the quantities the backward pass needs; < 0 when skipped.
inline float alphaAt(const Projected& p, uint32_t i, float px, float py, float& dx, float& dy, float& gaussian) {
  dx = px - p.uv[2 * i], dy = py - p.uv[2 * i + 1];
  const float* k = &p.conic[3 * i];
  const float power = -0.5f * (k[0] * dx * dx + k[2] * dy * dy) - k[1] * dx * dy;
  if (power > 0.f || power < p.minPower[i]) return -1.f;
  gaussian = std::exp(power);
  const float alpha = std::min(kMaxAlpha, p.alpha0[i] * gaussian);
  return alpha < kMinAlpha ? -1.f : alpha;
}

}  // namespace

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
  const Projected& p = out.proj;
  const size_t pixels = size_t(cam.width) * cam.height;
  out.rgb.assign(3 * pixels, 0.f);
  out.transmittance.assign(pixels, 1.f);
  out.lastIndex.assign(pixels, 0);
  const int tilesX = (cam.width + kTile - 1) / kTile, tilesY = (cam.height + kTile - 1) / kTile;
#pragma omp parallel for schedule(dynamic, 2)
  for (int tile = 0; tile < tilesX * tilesY; tile++) {
    const int tx = tile % tilesX, ty = tile / tilesX;
    const uint32_t begin = p.tileOffsets[tile], end = p.tileOffsets[tile + 1];
    for (int y = ty * kTile; y < std::min(cam.height, (ty + 1) * kTile); y++)
      for (int x = tx * kTile; x < std::min(cam.width, (tx + 1) * kTile); x++) {
        const float px = x + 0.5f, py = y + 0.5f;
        float T = 1.f, c[3] = {0, 0, 0};
        uint32_t last = 0;
        for (uint32_t k = begin; k < end; k++) {
          const uint32_t i = p.tileList[k];
          float dx, dy, g;
          const float alpha = alphaAt(p, i, px, py, dx, dy, g);
          if (alpha < 0.f) continue;
          const float next = T * (1.f - alpha);
          if (next < kMinTransmittance) break;
          const float w = alpha * T;
          for (int ch = 0; ch < 3; ch++) c[ch] += w * p.rgb[3 * i + ch];
          T = next;
          last = k - begin + 1;
        }
        const size_t pi = size_t(y) * cam.width + x;
        for (int ch = 0; ch < 3; ch++) out.rgb[3 * pi + ch] = c[ch] + T * background[ch];
        out.transmittance[pi] = T;
        out.lastIndex[pi] = last;
      }
  }
}

void backward(const Gaussians& gs, const Camera& cam, const float background[3], const Render& fwd, const std::vector<float>& dLdPixel,
              Gradients& grads) {
  const Projected& p = fwd.proj;
  const size_t n = gs.size();
  const int threads = omp_get_max_threads();
  // Per-thread screen-space gradients: du dv da db dc dalpha0 dr dg db.
  std::vector<std::vector<float>> local(threads, std::vector<float>(9 * n, 0.f));
  const int tilesX = (cam.width + kTile - 1) / kTile, tilesY = (cam.height + kTile - 1) / kTile;
  // Static round-robin tiles: each thread sums the same tiles every run, so the result is identical
  // for a given thread count (a dynamic schedule changes the float summation order from run to run).
#pragma omp parallel for schedule(static, 1)
  for (int tile = 0; tile < tilesX * tilesY; tile++) {
    float* acc = local[omp_get_thread_num()].data();
    const int tx = tile % tilesX, ty = tile / tilesX;
    const uint32_t begin = p.tileOffsets[tile];
    for (int y = ty * kTile; y < std::min(cam.height, (ty + 1) * kTile); y++)
      for (int x = tx * kTile; x < std::min(cam.width, (tx + 1) * kTile); x++) {
        const size_t pi = size_t(y) * cam.width + x;
        const float* dC = &dLdPixel[3 * pi];
        float T = fwd.transmittance[pi];
        float behind[3] = {T * background[0], T * background[1], T * background[2]};
        const float px = x + 0.5f, py = y + 0.5f;
        for (uint32_t k = fwd.lastIndex[pi]; k-- > 0;) {
          const uint32_t i = p.tileList[begin + k];
          float dx, dy, g;
          const float alpha = alphaAt(p, i, px, py, dx, dy, g);
          if (alpha < 0.f) continue;
          const float oneMinus = 1.f - alpha;
          const float Ti = T / oneMinus;
          const float* c = &p.rgb[3 * i];
          float dAlpha = 0.f;
          for (int ch = 0; ch < 3; ch++) {
            dAlpha += dC[ch] * (Ti * c[ch] - behind[ch] / oneMinus);
            acc[9 * i + 6 + ch] += dC[ch] * alpha * Ti;
            behind[ch] += c[ch] * alpha * Ti;
          }
          T = Ti;
          if (p.alpha0[i] * g > kMaxAlpha) continue;  // clamped: no gradient through alpha
          acc[9 * i + 5] += dAlpha * g;
          const float dPower = dAlpha * alpha;
          const float* kc = &p.conic[3 * i];
          acc[9 * i + 0] += dPower * (kc[0] * dx + kc[1] * dy);
          acc[9 * i + 1] += dPower * (kc[1] * dx + kc[2] * dy);
          acc[9 * i + 2] += dPower * (-0.5f * dx * dx);
          acc[9 * i + 3] += dPower * (-dx * dy);
          acc[9 * i + 4] += dPower * (-0.5f * dy * dy);
        }
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
    const float a0 = p.alpha0[i];
    grads.g.opacity[i] += s9[5] * a0 * (1.f - a0);
    // Conic → 2D covariance: dΣ2 = −K G K with G the gradient on the symmetric conic K.
    ProjectionTerms t;
    float u, v, conic[3], radius;
    projectOne(gs, i, cam, t, u, v, conic, radius);
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
    float u, v, conic[3], depth, radius, rgb[3], alpha0;
    int rect[4];
    size_t index;
  };
  std::vector<Entry> entries;
  float centre[3];
  cam.center(centre);
  const int tilesX = (cam.width + kTile - 1) / kTile, tilesY = (cam.height + kTile - 1) / kTile;
  for (size_t i = 0; i < n; i++) {
    ProjectionTerms t;
    Entry e;
    if (!projectOne(gs, i, cam, t, e.u, e.v, e.conic, e.radius)) continue;
    tileRect(e.u, e.v, e.radius, tilesX, tilesY, e.rect);
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
      const int tx = x / kTile, ty = y / kTile;
      float T = 1.f, c[3] = {0, 0, 0};
      for (const Entry& e : entries) {
        if (tx < e.rect[0] || tx > e.rect[2] || ty < e.rect[1] || ty > e.rect[3]) continue;
        const float dx = x + 0.5f - e.u, dy = y + 0.5f - e.v;
        const float power = -0.5f * (e.conic[0] * dx * dx + e.conic[2] * dy * dy) - e.conic[1] * dx * dy;
        if (power > 0.f) continue;
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
