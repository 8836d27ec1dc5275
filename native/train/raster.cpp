// Rendering and its gradients (raster.h): the kernel in use, render (projection, then each tile's forward
// kernel), backward (each tile's backward kernel, then the chain rule to the gaussians' parameters) and the
// per-pixel reference renderer the tests hold the tiled kernels to.
#include "train/raster.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include <omp.h>

#include "train/raster_internal.h"
#include "train/tile_kernels.h"

namespace sr::train {
using namespace detail;

namespace {
RasterKernel activeKernel = cpuHasAvx2() ? RasterKernel::Avx2 : RasterKernel::Baseline;
}  // namespace

RasterKernel rasterKernel() { return activeKernel; }

bool setRasterKernel(RasterKernel kernel) {
  if (kernel == RasterKernel::Avx2 && !cpuHasAvx2()) return false;
  activeKernel = kernel;
  return true;
}

const char* rasterKernelName(RasterKernel kernel) { return kernel == RasterKernel::Avx2 ? "AVX2+FMA" : "baseline"; }

void shColor(const Gaussians& gs, size_t i, const float centre[3], float rgb[3]) { colorOf(gs, i, centre, rgb); }

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
  // Screen-space gradients per run of tiles (below): du dv da db dc dalpha0 dr dg db. Kept between calls on a
  // thread (megabytes, otherwise faulted in anew every iteration), zeroed each time.
  static thread_local std::vector<std::vector<float>> kept;
  std::vector<std::vector<float>>& local = kept;  // the calling thread's, shared with the team below
  local.resize(threads);
  for (auto& sums : local) sums.assign(9 * n, 0.f);
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