#include "stereo/patch_match.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Dense>

namespace sr::stereo {
namespace {

constexpr int kMaxSamples = 121;  // (2·5+1)²
constexpr int kMaxSources = 8;
constexpr float kInvalid = 2.f;   // the cost of a window that leaves a source or is flat there

// splitmix64: a counter-based generator, so that every (seed, pass, pixel) has its own stream.
inline uint64_t mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct Rng {
  uint64_t state;
  Rng(uint64_t seed, uint64_t pass, uint64_t pixel) : state(mix(mix(seed) ^ (pass << 40) ^ pixel)) {}
  float uniform() {  // [0, 1)
    state = mix(state);
    return float(state >> 40) * (1.f / 16777216.f);
  }
  float gaussian() {  // Box–Muller
    const float u = std::max(uniform(), 1e-7f), v = uniform();
    return std::sqrt(-2.f * std::log(u)) * std::cos(6.2831853f * v);
  }
};

struct Plane {
  float depth = 0.f;
  Eigen::Vector3f n = Eigen::Vector3f(0, 0, -1);  // camera frame, n·ray < 0
};

inline float sampleBilinear(const View& v, float x, float y, bool& ok) {
  x -= 0.5f, y -= 0.5f;  // pixel centres at x + 0.5
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

// Source geometry relative to the reference camera: X_src = A·(depth·ray) / … + b in source pixels.
struct Source {
  const View* view;
  Eigen::Matrix3f A;  // K_s·R_rel
  Eigen::Vector3f b;  // K_s·t_rel
};

// One reference pixel's window: its samples, bilateral weights, rays and their images under each source's A.
struct Window {
  int m = 0;
  float value[kMaxSamples], weight[kMaxSamples];
  Eigen::Vector3f ray[kMaxSamples];
  Eigen::Vector3f proj[kMaxSources][kMaxSamples];
  Eigen::Vector3f centreRay;
  float sumW = 0, meanI = 0, varI = 0;
  bool textured = false;
};

struct Context {
  const View& ref;
  std::vector<Source> sources;
  Eigen::Matrix3f Kinv;
  Options o;
  float minDepth, maxDepth;

  Eigen::Vector3f ray(float x, float y) const { return Kinv * Eigen::Vector3f(x + 0.5f, y + 0.5f, 1.f); }

  void build(int x, int y, Window& w) const {
    const int r = o.windowRadius, step = std::max(1, o.windowStride);
    const float centre = ref.gray[size_t(y) * ref.width + x];
    const float sigmaS2 = 2.f * float(r * r);
    w.m = 0;
    w.centreRay = ray(float(x), float(y));
    double s = 0, s1 = 0, s2 = 0, u1 = 0, u2 = 0;
    for (int dy = -r; dy <= r; dy += step)
      for (int dx = -r; dx <= r; dx += step) {
        const int qx = x + dx, qy = y + dy;
        if (qx < 0 || qy < 0 || qx >= ref.width || qy >= ref.height || w.m >= kMaxSamples) continue;
        const float v = ref.gray[size_t(qy) * ref.width + qx];
        const float wt = o.sigmaColor > 0 ? std::exp(-std::fabs(v - centre) / o.sigmaColor - float(dx * dx + dy * dy) / sigmaS2) : 1.f;
        w.value[w.m] = v, w.weight[w.m] = wt;
        w.ray[w.m] = ray(float(qx), float(qy));
        for (size_t k = 0; k < sources.size(); k++) w.proj[k][w.m] = sources[k].A * w.ray[w.m];
        s += wt, s1 += wt * v, s2 += wt * v * v, u1 += v, u2 += double(v) * v;
        w.m++;
      }
    w.sumW = float(s);
    w.meanI = float(s1 / s);
    w.varI = float(std::max(0.0, s2 / s - (s1 / s) * (s1 / s)));
    const double mean = u1 / w.m, var = u2 / w.m - mean * mean;
    w.textured = w.m >= 4 && var > double(o.minStdDev) * o.minStdDev && w.varI > 1e-10f;
  }

  // Averaged 1 − NCC of the best sources for the plane through depth·centreRay with normal n.
  float cost(const Window& w, const Plane& p) const {
    const float np = p.n.dot(w.centreRay);
    if (!(np < -0.05f * w.centreRay.norm())) return kInvalid;  // back-facing or grazing
    const float k = p.depth * np;                               // depth at sample q: k / (n·ray_q)
    float depthAt[kMaxSamples];
    for (int q = 0; q < w.m; q++) {
      const float nq = p.n.dot(w.ray[q]);
      depthAt[q] = nq < 0.f ? k / nq : -1.f;
    }
    float costs[kMaxSources];
    const int count = int(sources.size());
    for (int s = 0; s < count; s++) {
      const Source& src = sources[s];
      float sw = 0, s1 = 0, s2 = 0, s12 = 0;
      bool ok = true;
      for (int q = 0; q < w.m && ok; q++) {
        if (!(depthAt[q] > 0.f)) {
          ok = false;
          break;
        }
        const Eigen::Vector3f h = depthAt[q] * w.proj[s][q] + src.b;
        if (!(h.z() > 1e-6f)) {
          ok = false;
          break;
        }
        const float j = sampleBilinear(*src.view, h.x() / h.z(), h.y() / h.z(), ok);
        const float wt = w.weight[q];
        sw += wt, s1 += wt * j, s2 += wt * j * j, s12 += wt * j * w.value[q];
      }
      if (!ok) {
        costs[s] = kInvalid;
        continue;
      }
      const float meanJ = s1 / sw, varJ = s2 / sw - meanJ * meanJ;
      if (!(varJ > 1e-8f)) {
        costs[s] = kInvalid;
        continue;
      }
      const float ncc = (s12 / sw - w.meanI * meanJ) / std::sqrt(w.varI * varJ);
      costs[s] = 1.f - std::clamp(ncc, -1.f, 1.f);
    }
    const int best = std::min(std::max(1, o.bestSources), count);
    std::partial_sort(costs, costs + best, costs + count);
    float sum = 0;
    for (int s = 0; s < best; s++) sum += costs[s];
    return sum / best;
  }

  Eigen::Vector3f randomNormal(Rng& rng, const Eigen::Vector3f& centreRay) const {
    for (int attempt = 0; attempt < 8; attempt++) {
      Eigen::Vector3f n(rng.gaussian(), rng.gaussian(), rng.gaussian());
      if (n.norm() < 1e-6f) continue;
      n.normalize();
      if (n.dot(centreRay) > 0) n = -n;
      if (n.dot(centreRay) < -0.1f * centreRay.norm()) return n;
    }
    return -centreRay.normalized();
  }
};

}  // namespace

DepthNormal patchMatch(const View& ref, const std::vector<const View*>& sourceViews, float minDepth, float maxDepth, const Options& options) {
  const int w = ref.width, h = ref.height, n = w * h;
  Context c{ref, {}, ref.K.inverse(), options, minDepth, maxDepth};
  if (c.o.windowRadius > 5) c.o.windowRadius = 5;
  for (const View* s : sourceViews) {
    if (c.sources.size() >= size_t(kMaxSources)) break;
    const Eigen::Matrix3f Rrel = s->R * ref.R.transpose();
    const Eigen::Vector3f trel = s->t - Rrel * ref.t;
    c.sources.push_back({s, s->K * Rrel, s->K * trel});
  }
  DepthNormal out;
  out.depth.assign(n, 0.f);
  out.normals.assign(size_t(3) * n, 0.f);
  out.cost.assign(n, kInvalid);
  if (c.sources.empty() || !(maxDepth > minDepth && minDepth > 0)) return out;
  const float invNear = 1.f / minDepth, invFar = 1.f / maxDepth;
  std::vector<Plane> planes(n);
  std::vector<float>& costs = out.cost;
  std::vector<unsigned char> textured(n, 0);

  // Random start: depth uniform in inverse depth, a normal facing the camera.
#pragma omp parallel for schedule(dynamic, 4)
  for (int y = 0; y < h; y++) {
    Window win;
    for (int x = 0; x < w; x++) {
      const int i = y * w + x;
      Rng rng(c.o.seed, 0, uint64_t(i));
      c.build(x, y, win);
      textured[i] = win.textured;
      planes[i].depth = 1.f / (invFar + (invNear - invFar) * rng.uniform());
      planes[i].n = c.randomNormal(rng, win.centreRay);
      if (win.textured) costs[i] = c.cost(win, planes[i]);
    }
  }

  // Neighbours at odd Manhattan distance: in a red-black pass a pixel reads only the other colour.
  static const int offsets[][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-5, 0}, {5, 0}, {0, -5}, {0, 5}, {-2, -1}, {2, 1}, {-1, 2}, {1, -2}};
  for (int it = 0; it < c.o.iterations; it++) {
    const float scale = std::pow(0.5f, float(it));
    for (int colour = 0; colour < 2; colour++) {
#pragma omp parallel for schedule(dynamic, 4)
      for (int y = 0; y < h; y++) {
        Window win;
        for (int x = (y + colour) % 2; x < w; x += 2) {
          const int i = y * w + x;
          if (!textured[i]) continue;
          c.build(x, y, win);
          Rng rng(c.o.seed, uint64_t(1 + 2 * it + colour), uint64_t(i));
          Plane best = planes[i];
          float bestCost = costs[i];
          auto consider = [&](const Plane& p) {
            if (!(p.depth >= minDepth && p.depth <= maxDepth)) return;
            const float cost = c.cost(win, p);
            if (cost < bestCost) bestCost = cost, best = p;
          };
          // Propagation: a neighbour's plane, carried to this pixel's ray.
          for (const auto& off : offsets) {
            const int nx = x + off[0], ny = y + off[1];
            if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
            const int j = ny * w + nx;
            if (!textured[j] || costs[j] >= kInvalid) continue;
            const Plane& q = planes[j];
            const float denom = q.n.dot(win.centreRay);
            if (!(denom < 0.f)) continue;
            consider({q.depth * q.n.dot(c.ray(float(nx), float(ny))) / denom, q.n});
          }
          // Refinement: random and perturbed planes, the perturbation halving every iteration.
          const Plane current = best;
          const float inv = 1.f / current.depth, span = invNear - invFar;
          auto perturbDepth = [&](float s) { return 1.f / std::clamp(inv + (2.f * rng.uniform() - 1.f) * 0.1f * s * span, invFar, invNear); };
          auto perturbNormal = [&](float s) {
            Eigen::Vector3f m = current.n + 0.5f * s * Eigen::Vector3f(rng.gaussian(), rng.gaussian(), rng.gaussian());
            m.normalize();
            return m.dot(win.centreRay) < -0.1f * win.centreRay.norm() ? m : current.n;
          };
          consider({1.f / (invFar + span * rng.uniform()), current.n});
          consider({current.depth, c.randomNormal(rng, win.centreRay)});
          consider({perturbDepth(scale), perturbNormal(scale)});
          consider({perturbDepth(0.25f * scale), current.n});
          consider({current.depth, perturbNormal(0.5f * scale)});
          planes[i] = best, costs[i] = bestCost;
        }
      }
    }
  }

  const float maxCost = 1.f - c.o.minNcc;
  for (int i = 0; i < n; i++) {
    if (!textured[i] || !(costs[i] <= maxCost) || !std::isfinite(planes[i].depth)) continue;
    out.depth[i] = planes[i].depth;
    out.normals[i] = planes[i].n.x(), out.normals[size_t(n) + i] = planes[i].n.y(), out.normals[size_t(2) * n + i] = planes[i].n.z();
  }
  return out;
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

}  // namespace sr::stereo
