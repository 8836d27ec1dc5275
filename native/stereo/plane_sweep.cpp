#include "stereo/plane_sweep.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Dense>

namespace sr::stereo {
namespace {

inline float sampleBilinear(const View& v, float x, float y, bool& ok) {
  x -= 0.5f, y -= 0.5f;
  if (!(x >= 0.f && y >= 0.f && x <= v.width - 1.001f && y <= v.height - 1.001f)) {
    ok = false;
    return 0.f;
  }
  const int x0 = int(x), y0 = int(y);
  const float ax = x - x0, ay = y - y0;
  const float* row0 = &v.gray[size_t(y0) * v.width + x0];
  const float* row1 = row0 + v.width;
  ok = true;
  return (row0[0] * (1 - ax) + row0[1] * ax) * (1 - ay) + (row1[0] * (1 - ax) + row1[1] * ax) * ay;
}

// Box sums of a (2r+1)² window over a row-major image, via a summed-area table (double for precision).
void boxSums(const std::vector<float>& in, int w, int h, int r, std::vector<double>& table, std::vector<float>& out) {
  table.assign(size_t(w + 1) * (h + 1), 0.0);
  for (int y = 0; y < h; y++) {
    double row = 0;
    for (int x = 0; x < w; x++) {
      row += in[size_t(y) * w + x];
      table[size_t(y + 1) * (w + 1) + x + 1] = table[size_t(y) * (w + 1) + x + 1] + row;
    }
  }
  out.assign(size_t(w) * h, 0.f);
  for (int y = 0; y < h; y++) {
    const int y0 = std::max(0, y - r), y1 = std::min(h, y + r + 1);
    for (int x = 0; x < w; x++) {
      const int x0 = std::max(0, x - r), x1 = std::min(w, x + r + 1);
      out[size_t(y) * w + x] = float(table[size_t(y1) * (w + 1) + x1] - table[size_t(y0) * (w + 1) + x1] - table[size_t(y1) * (w + 1) + x0] +
                                     table[size_t(y0) * (w + 1) + x0]);
    }
  }
}

}  // namespace

std::vector<float> sweep(const View& ref, const std::vector<const View*>& sources, float minDepth, float maxDepth, const Options& o, std::vector<float>* score) {
  const int w = ref.width, h = ref.height, n = w * h, planes = std::max(2, o.planes);
  const int r = o.windowRadius;
  const Eigen::Matrix3f Kinv = ref.K.inverse();
  std::vector<Eigen::Vector3f> rays(n);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) rays[size_t(y) * w + x] = Kinv * Eigen::Vector3f(x + 0.5f, y + 0.5f, 1.f);
  // Reference window statistics (the same for every plane).
  std::vector<double> table;
  std::vector<float> sumI, sumII, sq(n), count, ones(n, 1.f);
  for (int i = 0; i < n; i++) sq[i] = ref.gray[i] * ref.gray[i];
  boxSums(ref.gray, w, h, r, table, sumI);
  boxSums(sq, w, h, r, table, sumII);
  boxSums(ones, w, h, r, table, count);
  // Cost volume: the averaged best-source NCC per plane and pixel.
  std::vector<float> volume(size_t(planes) * n, -1.f);
  const float invNear = 1.f / minDepth, invFar = 1.f / maxDepth;
#pragma omp parallel
  {
    std::vector<double> tableLocal;
    std::vector<float> warped(n), valid(n), wsq(n), iw(n), sW, sWW, sIW, sValid;
#pragma omp for schedule(dynamic, 1)
    for (int p = 0; p < planes; p++) {
      const float depth = 1.f / (invFar + (invNear - invFar) * (p + 0.5f) / planes);
      std::vector<std::vector<float>> ncc(sources.size(), std::vector<float>(n, -1.f));
      for (size_t s = 0; s < sources.size(); s++) {
        const View& src = *sources[s];
        const Eigen::Matrix3f Rrel = src.R * ref.R.transpose();
        const Eigen::Vector3f trel = src.t - Rrel * ref.t;
        for (int i = 0; i < n; i++) {
          const Eigen::Vector3f q = src.K * (Rrel * (rays[i] * depth) + trel);
          bool ok = q.z() > 1e-6f;
          float value = 0.f;
          if (ok) value = sampleBilinear(src, q.x() / q.z(), q.y() / q.z(), ok);
          warped[i] = ok ? value : 0.f;
          valid[i] = ok ? 1.f : 0.f;
          wsq[i] = warped[i] * warped[i];
          iw[i] = warped[i] * ref.gray[i];
        }
        boxSums(warped, w, h, r, tableLocal, sW);
        boxSums(wsq, w, h, r, tableLocal, sWW);
        boxSums(iw, w, h, r, tableLocal, sIW);
        boxSums(valid, w, h, r, tableLocal, sValid);
        for (int i = 0; i < n; i++) {
          const float m = count[i];
          if (sValid[i] < m - 0.5f) continue;  // the window leaves the source image
          const float varI = sumII[i] - sumI[i] * sumI[i] / m, varW = sWW[i] - sW[i] * sW[i] / m;
          if (varI <= o.minStdDev * o.minStdDev * m || varW <= 1e-8f * m) continue;
          ncc[s][i] = (sIW[i] - sumI[i] * sW[i] / m) / std::sqrt(varI * varW);
        }
      }
      const int k = std::min<int>(o.bestSources, int(sources.size()));
      for (int i = 0; i < n; i++) {
        float best[8];
        int m = 0;
        for (size_t s = 0; s < sources.size() && m < 8; s++) best[m++] = ncc[s][i];
        std::partial_sort(best, best + k, best + m, std::greater<float>());
        float sum = 0.f;
        for (int j = 0; j < k; j++) sum += best[j];
        volume[size_t(p) * n + i] = k ? sum / k : -1.f;
      }
    }
  }
  std::vector<float> depth(n, 0.f);
  if (score) score->assign(n, -1.f);
  for (int i = 0; i < n; i++) {
    int best = -1;
    float bestScore = o.minNcc;
    for (int p = 0; p < planes; p++) {
      const float c = volume[size_t(p) * n + i];
      if (c > bestScore) bestScore = c, best = p;
    }
    if (best < 0) continue;
    // Parabola through the neighbouring planes' scores, in plane index (inverse depth is linear in it).
    float offset = 0.f;
    if (best > 0 && best < planes - 1) {
      const float a = volume[size_t(best - 1) * n + i], b = bestScore, c = volume[size_t(best + 1) * n + i];
      const float denom = a - 2 * b + c;
      if (denom < -1e-6f) offset = std::clamp(0.5f * (a - c) / denom, -0.5f, 0.5f);
    }
    depth[i] = 1.f / (invFar + (invNear - invFar) * (best + offset + 0.5f) / planes);
    if (score) (*score)[i] = bestScore;
  }
  return depth;
}

void keepConsistent(const View& ref, std::vector<float>& depth, const std::vector<const View*>& others, const std::vector<const std::vector<float>*>& otherDepths,
                    int minViews, float relative, float pixels) {
  const Eigen::Matrix3f Kinv = ref.K.inverse();
  const Eigen::Matrix3f Rt = ref.R.transpose();
  std::vector<float> kept(depth.size(), 0.f);
#pragma omp parallel for schedule(dynamic, 8)
  for (int y = 0; y < ref.height; y++)
    for (int x = 0; x < ref.width; x++) {
      const size_t i = size_t(y) * ref.width + x;
      if (!(depth[i] > 0.f)) continue;
      const Eigen::Vector3f X = Rt * (Kinv * Eigen::Vector3f(x + 0.5f, y + 0.5f, 1.f) * depth[i] - ref.t);
      int agree = 0;
      for (size_t s = 0; s < others.size(); s++) {
        const View& o = *others[s];
        const Eigen::Vector3f pc = o.R * X + o.t;
        if (pc.z() <= 0) continue;
        const Eigen::Vector3f q = o.K * pc;
        const int sx = int(q.x() / q.z()), sy = int(q.y() / q.z());
        if (sx < 0 || sy < 0 || sx >= o.width || sy >= o.height) continue;
        const float d = (*otherDepths[s])[size_t(sy) * o.width + sx];
        if (!(d > 0.f) || std::fabs(d - pc.z()) > relative * pc.z()) continue;
        // Back from the other view's depth into the reference: the same pixel?
        const Eigen::Vector3f Y = o.R.transpose() * (o.K.inverse() * Eigen::Vector3f(sx + 0.5f, sy + 0.5f, 1.f) * d - o.t);
        const Eigen::Vector3f back = ref.K * (ref.R * Y + ref.t);
        if (back.z() <= 0) continue;
        if (std::hypot(back.x() / back.z() - (x + 0.5f), back.y() / back.z() - (y + 0.5f)) <= pixels) agree++;
      }
      if (agree >= minViews) kept[i] = depth[i];
    }
  depth.swap(kept);
}

std::vector<float> normalsFromDepth(const View& view, const std::vector<float>& depth) {
  const int w = view.width, h = view.height;
  std::vector<float> normals(size_t(3) * w * h, 0.f);
  const Eigen::Matrix3f Kinv = view.K.inverse();
  auto point = [&](int x, int y) -> Eigen::Vector3f { return Kinv * Eigen::Vector3f(x + 0.5f, y + 0.5f, 1.f) * depth[size_t(y) * w + x]; };
  for (int y = 1; y < h - 1; y++)
    for (int x = 1; x < w - 1; x++) {
      const size_t i = size_t(y) * w + x;
      if (!(depth[i] > 0.f)) continue;
      const bool hx = depth[i + 1] > 0.f && depth[i - 1] > 0.f, hy = depth[i + w] > 0.f && depth[i - w] > 0.f;
      if (!hx || !hy) continue;
      Eigen::Vector3f n = (point(x + 1, y) - point(x - 1, y)).cross(point(x, y + 1) - point(x, y - 1));
      if (n.norm() < 1e-12f) continue;
      n.normalize();
      if (n.dot(point(x, y)) > 0) n = -n;  // facing the camera
      const size_t plane = size_t(w) * h;
      normals[i] = n.x(), normals[plane + i] = n.y(), normals[2 * plane + i] = n.z();
    }
  return normals;
}

}  // namespace sr::stereo
