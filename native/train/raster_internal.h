// The rasteriser's shared inner parts (not an interface: raster.h is): a gaussian's 3D covariance and its
// projection to the screen, used by projection (raster_project.cpp), the backward pass and the reference
// renderer (raster.cpp); the pixel slack the tile kernels (tile_kernels/) share with projection.
#pragma once
#include <algorithm>
#include <cmath>

#include "train/raster.h"

namespace sr::train::detail {

// Inlined into its callers, as when the rasteriser was one file (projection calls colorOf per gaussian).
#if defined(__GNUC__)
#define SR_RASTER_INLINE inline __attribute__((always_inline))
#else
#define SR_RASTER_INLINE inline
#endif

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

// shColor (raster.h), inlined where projection calls it per gaussian.
SR_RASTER_INLINE void colorOf(const Gaussians& gs, size_t i, const float centre[3], float rgb[3]) {
  for (int ch = 0; ch < 3; ch++) rgb[ch] = 0.5f + kSHC0 * gs.color[3 * i + ch];
  if (gs.shDegree < 1) return;
  float dir[3], basis[kShRest];
  viewDirection(gs, i, centre, dir);
  shBasis(dir[0], dir[1], dir[2], gs.shDegree, basis);
  const float* sh = &gs.sh[size_t(3 * kShRest) * i];
  for (int k = 0; k < shRestOf(gs.shDegree); k++)
    for (int ch = 0; ch < 3; ch++) rgb[ch] += basis[k] * sh[3 * k + ch];
}

// Whole pixels of slack around a cut-off ellipse when choosing tiles and rows: rounding must never leave out a
// pixel the per-pixel test would draw (extra pixels are harmless: the test rejects them).
constexpr float kSlack = 0.01f;

// Projects every gaussian (the ScreenSplat of each, radius 0 where it is drawn nowhere) and lists, per tile, the
// gaussians whose cut-off ellipse reaches its pixels, nearest first.
void project(const Gaussians& gs, const Camera& cam, Projected& p);

}  // namespace sr::train::detail
