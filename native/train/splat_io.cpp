#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "lib/ply_io.h"
#include "train/training.h"

namespace sr::train {
namespace {

// Version 2 added the SH coefficients above degree 0 and the degree in use; version 3 the count of opacity
// resets done.
constexpr char kCheckpointMagic[9] = "SRCK0003";

template <typename T>
void put(std::ostream& out, const T& v) {
  out.write(reinterpret_cast<const char*>(&v), sizeof(T));
}
template <typename T>
T get(std::istream& in) {
  T v;
  in.read(reinterpret_cast<char*>(&v), sizeof(T));
  if (!in) throw std::runtime_error("truncated checkpoint");
  return v;
}
void putVec(std::ostream& out, const std::vector<float>& v) {
  put<uint64_t>(out, v.size());
  out.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(float)));
}
std::vector<float> getVec(std::istream& in) {
  const auto n = get<uint64_t>(in);
  if (n > (uint64_t(1) << 32)) throw std::runtime_error("corrupt checkpoint");
  std::vector<float> v(n);
  in.read(reinterpret_cast<char*>(v.data()), std::streamsize(n * sizeof(float)));
  if (!in) throw std::runtime_error("truncated checkpoint");
  return v;
}
void putGaussians(std::ostream& out, const Gaussians& g) {
  putVec(out, g.mean), putVec(out, g.logScale), putVec(out, g.quat), putVec(out, g.opacity), putVec(out, g.color), putVec(out, g.sh);
  put<int32_t>(out, g.shDegree);
}
Gaussians getGaussians(std::istream& in) {
  Gaussians g;
  g.mean = getVec(in), g.logScale = getVec(in), g.quat = getVec(in), g.opacity = getVec(in), g.color = getVec(in), g.sh = getVec(in);
  g.shDegree = get<int32_t>(in);
  const size_t n = g.opacity.size();
  if (g.mean.size() != 3 * n || g.logScale.size() != 3 * n || g.quat.size() != 4 * n || g.color.size() != 3 * n || g.sh.size() != 3 * kShRest * n ||
      g.shDegree < 0 || g.shDegree > kMaxShDegree)
    throw std::runtime_error("corrupt checkpoint");
  return g;
}

}  // namespace

PointCloud readPointsPly(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  const PlyHeader header = readPlyHeader(in, path);
  if (header.ascii) throw std::runtime_error(path + ": only binary little-endian .ply is read");
  if (header.elements.empty() || header.elements.front().name != "vertex") throw std::runtime_error(path + " does not start with its vertices");
  const PlyElement& vertex = header.elements.front();
  if (vertex.rowBytes == 0) throw std::runtime_error("list properties in the vertex element are not supported");
  const int ix = vertex.find("x"), iy = vertex.find("y"), iz = vertex.find("z");
  const int ids[3] = {vertex.find("red"), vertex.find("green"), vertex.find("blue")};
  if (ix < 0 || iy < 0 || iz < 0) throw std::runtime_error(path + " has no x y z");
  const size_t count = vertex.count, stride = vertex.rowBytes;
  std::vector<char> body(count * stride);
  in.read(body.data(), std::streamsize(body.size()));
  if (!in) throw std::runtime_error(path + " is truncated");
  auto value = [&](const char* row, int k) { return plyValueAt(row + vertex.properties[k].offset, vertex.properties[k].type); };
  PointCloud pc;
  pc.xyz.resize(3 * count);
  pc.rgb.assign(3 * count, 0.5f);
  const bool colour = ids[0] >= 0 && ids[1] >= 0 && ids[2] >= 0;
  for (size_t i = 0; i < count; i++) {
    const char* row = &body[i * stride];
    pc.xyz[3 * i] = float(value(row, ix));
    pc.xyz[3 * i + 1] = float(value(row, iy));
    pc.xyz[3 * i + 2] = float(value(row, iz));
    if (colour) {
      for (int c = 0; c < 3; c++) {
        const std::string& type = vertex.properties[ids[c]].type;
        const double v = value(row, ids[c]);
        pc.rgb[3 * i + c] = float(type == "float" || type == "float32" ? v : v / 255.0);
      }
    }
  }
  return pc;
}

Gaussians gaussiansFromPoints(const PointCloud& points, float initialOpacity) {
  const size_t n = points.xyz.size() / 3;
  Gaussians g;
  g.resize(n);
  if (n == 0) return g;
  // Mean distance to the 3 nearest neighbours, on a uniform grid sized from the bounding box.
  float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) lo[k] = std::min(lo[k], points.xyz[3 * i + k]), hi[k] = std::max(hi[k], points.xyz[3 * i + k]);
  const float volume = std::max(1e-9f, (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]));
  const float cell = std::max(1e-4f, std::cbrt(volume / float(n)) * 2.f);
  auto key = [&](int x, int y, int z) { return (int64_t(x) * 73856093) ^ (int64_t(y) * 19349663) ^ (int64_t(z) * 83492791); };
  std::unordered_map<int64_t, std::vector<uint32_t>> grid;
  auto cellOf = [&](float v, int k) { return int(std::floor((v - lo[k]) / cell)); };
  for (size_t i = 0; i < n; i++)
    grid[key(cellOf(points.xyz[3 * i], 0), cellOf(points.xyz[3 * i + 1], 1), cellOf(points.xyz[3 * i + 2], 2))].push_back(uint32_t(i));
#pragma omp parallel for schedule(dynamic, 256)
  for (long li = 0; li < long(n); li++) {
    const size_t i = size_t(li);
    const float* p = &points.xyz[3 * i];
    float best[3] = {1e30f, 1e30f, 1e30f};
    const int cx = cellOf(p[0], 0), cy = cellOf(p[1], 1), cz = cellOf(p[2], 2);
    for (int dx = -1; dx <= 1; dx++)
      for (int dy = -1; dy <= 1; dy++)
        for (int dz = -1; dz <= 1; dz++) {
          auto it = grid.find(key(cx + dx, cy + dy, cz + dz));
          if (it == grid.end()) continue;
          for (uint32_t j : it->second) {
            if (j == i) continue;
            const float* q = &points.xyz[3 * j];
            const float d = (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]);
            if (d < best[2]) {
              best[2] = d;
              std::sort(best, best + 3);
            }
          }
        }
    float sum = 0;
    int found = 0;
    for (float b : best)
      if (b < 1e29f) sum += std::sqrt(b), found++;
    const float scale = std::clamp(found ? sum / float(found) : cell, 1e-4f, cell * 2.f);
    for (int k = 0; k < 3; k++) {
      g.mean[3 * i + k] = p[k];
      g.logScale[3 * i + k] = std::log(scale);
      g.color[3 * i + k] = (points.rgb[3 * i + k] - 0.5f) / kSHC0;
    }
    g.quat[4 * i] = 1.f, g.quat[4 * i + 1] = g.quat[4 * i + 2] = g.quat[4 * i + 3] = 0.f;
    g.opacity[i] = std::log(initialOpacity / (1.f - initialOpacity));
  }
  return g;
}

void writeSplatPly(const Gaussians& g, const std::string& path) {
  const std::string tmp = path + ".partial";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + path);
    out << "ply\nformat binary_little_endian 1.0\nelement vertex " << g.size() << "\n";
    const int rest = shRestOf(std::clamp(g.shDegree, 0, kMaxShDegree));
    for (const char* name : {"x", "y", "z", "nx", "ny", "nz", "f_dc_0", "f_dc_1", "f_dc_2"}) out << "property float " << name << "\n";
    for (int k = 0; k < 3 * rest; k++) out << "property float f_rest_" << k << "\n";
    for (const char* name : {"opacity", "scale_0", "scale_1", "scale_2", "rot_0", "rot_1", "rot_2", "rot_3"}) out << "property float " << name << "\n";
    out << "end_header\n";
    std::vector<float> row;
    for (size_t i = 0; i < g.size(); i++) {
      const float* q = &g.quat[4 * i];
      const float norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) + 1e-12f;
      row = {g.mean[3 * i], g.mean[3 * i + 1], g.mean[3 * i + 2], 0, 0, 0, g.color[3 * i], g.color[3 * i + 1], g.color[3 * i + 2]};
      const float* sh = &g.sh[size_t(3 * kShRest) * i];
      for (int ch = 0; ch < 3; ch++)
        for (int k = 0; k < rest; k++) row.push_back(sh[3 * k + ch]);
      for (float v : {g.opacity[i], g.logScale[3 * i], g.logScale[3 * i + 1], g.logScale[3 * i + 2], q[0] / norm, q[1] / norm, q[2] / norm, q[3] / norm}) row.push_back(v);
      out.write(reinterpret_cast<const char*>(row.data()), std::streamsize(row.size() * sizeof(float)));
    }
    if (!out) throw std::runtime_error("cannot write " + path);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot write " + path);
}

void writeCheckpoint(const Checkpoint& c, const std::string& path) {
  const std::string tmp = path + ".partial";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + path);
    out.write(kCheckpointMagic, 8);
    put<int32_t>(out, c.iteration);
    put<int32_t>(out, c.opacityResets);
    put<double>(out, c.seconds);
    for (float b : c.background) put<float>(out, b);
    put<int32_t>(out, c.adam.step);
    putGaussians(out, c.params), putGaussians(out, c.adam.m), putGaussians(out, c.adam.v);
    put<uint64_t>(out, c.rng.size());
    out.write(c.rng.data(), std::streamsize(c.rng.size()));
    if (!out) throw std::runtime_error("cannot write " + path);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot write " + path);
}

Checkpoint readCheckpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  char magic[8];
  in.read(magic, 8);
  if (!in || std::memcmp(magic, "SRCK", 4) != 0) throw std::runtime_error(path + " is not a checkpoint of this trainer");
  if (std::memcmp(magic, kCheckpointMagic, 8) != 0)
    throw std::runtime_error(path + " was written by another version of this trainer (" + std::string(magic, 8) + ", this one reads " + kCheckpointMagic + ")");
  Checkpoint c;
  c.iteration = get<int32_t>(in);
  c.opacityResets = get<int32_t>(in);
  c.seconds = get<double>(in);
  for (float& b : c.background) b = get<float>(in);
  c.adam.step = get<int32_t>(in);
  c.params = getGaussians(in), c.adam.m = getGaussians(in), c.adam.v = getGaussians(in);
  const auto n = get<uint64_t>(in);
  if (n > 100000) throw std::runtime_error("corrupt checkpoint");
  c.rng.resize(n);
  in.read(c.rng.data(), std::streamsize(n));
  if (!in) throw std::runtime_error("truncated checkpoint");
  if (c.adam.m.size() != c.params.size() || c.adam.v.size() != c.params.size()) throw std::runtime_error("corrupt checkpoint");
  return c;
}

namespace {

// The `count` numbers after "key": in a JSON text (brackets, commas and spaces between them skipped), or false.
bool jsonNumbers(const std::string& text, const std::string& key, float* out, int count) {
  const auto at = text.find("\"" + key + "\"");
  if (at == std::string::npos) return false;
  const auto colon = text.find(':', at + key.size() + 2);
  if (colon == std::string::npos) return false;
  const char* p = text.c_str() + colon + 1;
  for (int i = 0; i < count; i++) {
    while (*p != 0 && std::strchr(" \t\r\n[],", *p) != nullptr) p++;
    char* end = nullptr;
    out[i] = std::strtof(p, &end);
    if (end == p || !std::isfinite(out[i])) return false;
    p = end;
  }
  return true;
}

}  // namespace

bool RegionOfInterest::contains(const float p[3]) const {
  if (!box) {
    const float d = std::sqrt((p[0] - center[0]) * (p[0] - center[0]) + (p[1] - center[1]) * (p[1] - center[1]) + (p[2] - center[2]) * (p[2] - center[2]));
    return d <= radius;
  }
  for (int k = 0; k < 3; k++) {
    const float along = axes[k][0] * p[0] + axes[k][1] * p[1] + axes[k][2] * p[2];
    if (!(along >= min[k] && along <= max[k])) return false;
  }
  return true;
}

bool parseRoi(const std::string& text, RegionOfInterest& roi) {
  RegionOfInterest out;
  if (!jsonNumbers(text, "center", out.center, 3) || !jsonNumbers(text, "radius", &out.radius, 1)) return false;
  if (!(out.radius > 0)) return false;
  if (text.find("\"min\"") != std::string::npos || text.find("\"max\"") != std::string::npos) {
    if (!jsonNumbers(text, "min", out.min, 3) || !jsonNumbers(text, "max", out.max, 3)) return false;
    // Without axes the box is along the model's axes.
    if (text.find("\"axes\"") != std::string::npos && !jsonNumbers(text, "axes", &out.axes[0][0], 9)) return false;
    for (int k = 0; k < 3; k++)
      if (!(out.min[k] <= out.max[k])) return false;
    out.box = true;
  }
  roi = out;
  return true;
}

bool readRoi(const std::string& path, RegionOfInterest& roi) {
  std::ifstream in(path);
  if (!in) return false;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parseRoi(buffer.str(), roi);
}

std::vector<char> insideRoi(const Gaussians& g, const RegionOfInterest& roi) {
  std::vector<char> keep(g.size());
  for (size_t i = 0; i < keep.size(); i++) keep[i] = roi.contains(&g.mean[3 * i]) ? 1 : 0;
  return keep;
}

}  // namespace sr::train
