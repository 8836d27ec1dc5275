#include "ply_mesh.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "lib/ply_io.h"

namespace sr {

TriangleMesh readPlyMesh(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  const PlyHeader header = readPlyHeader(in, path);
  TriangleMesh mesh;
  std::string line;
  for (const PlyElement& element : header.elements) {
    const bool vertex = element.name == "vertex", face = element.name == "face";
    for (size_t i = 0; i < element.count; ++i) {
      Eigen::Vector3f xyz = Eigen::Vector3f::Zero();
      std::vector<int> corners;
      std::istringstream row;
      if (header.ascii) {
        if (!std::getline(in, line)) throw std::runtime_error("PLY: file ends early");
        row.str(line);
      }
      auto next = [&](const std::string& type) {
        if (!header.ascii) return readPlyValue(in, type);
        double v;
        if (!(row >> v)) throw std::runtime_error("PLY: short row");
        return v;
      };
      for (const PlyProperty& p : element.properties) {
        if (!p.countType.empty()) {
          const int n = int(next(p.countType));
          for (int k = 0; k < n; ++k) {
            const double v = next(p.type);
            if (face && (p.name == "vertex_indices" || p.name == "vertex_index")) corners.push_back(int(v));
          }
        } else {
          const double v = next(p.type);
          if (vertex) {
            if (p.name == "x") xyz.x() = float(v);
            else if (p.name == "y") xyz.y() = float(v);
            else if (p.name == "z") xyz.z() = float(v);
          }
        }
      }
      if (vertex) mesh.vertices.push_back(xyz);
      else if (face) {
        for (size_t k = 2; k < corners.size(); ++k) mesh.faces.emplace_back(corners[0], corners[k - 1], corners[k]);
      }
    }
  }
  for (const auto& f : mesh.faces)
    for (int k = 0; k < 3; ++k)
      if (f[k] < 0 || size_t(f[k]) >= mesh.vertices.size()) throw std::runtime_error("PLY: face index out of range");
  return mesh;
}

void writeTexturedObj(const std::string& path, const TriangleMesh& mesh, const std::vector<Eigen::Vector2f>& uv) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw std::runtime_error("cannot write " + path);
  for (const auto& v : mesh.vertices) std::fprintf(f, "v %.7g %.7g %.7g\n", v.x(), v.y(), v.z());
  for (const auto& t : uv) std::fprintf(f, "vt %.7g %.7g\n", t.x(), t.y());
  for (size_t i = 0; i < mesh.faces.size(); ++i) {
    const auto& c = mesh.faces[i];
    std::fprintf(f, "f %d/%zu %d/%zu %d/%zu\n", c[0] + 1, i * 3 + 1, c[1] + 1, i * 3 + 2, c[2] + 1, i * 3 + 3);
  }
  if (std::fclose(f) != 0) throw std::runtime_error("cannot write " + path);
}

}  // namespace sr
