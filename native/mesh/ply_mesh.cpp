#include "ply_mesh.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sr {
namespace {

struct Property {
  std::string name, type, countType;  // countType non-empty for lists
};

size_t typeSize(const std::string& t) {
  if (t == "char" || t == "uchar" || t == "int8" || t == "uint8") return 1;
  if (t == "short" || t == "ushort" || t == "int16" || t == "uint16") return 2;
  if (t == "int" || t == "uint" || t == "float" || t == "int32" || t == "uint32" || t == "float32") return 4;
  if (t == "double" || t == "float64") return 8;
  throw std::runtime_error("PLY: unsupported property type " + t);
}

double readBinary(std::istream& in, const std::string& t) {
  unsigned char b[8];
  size_t n = typeSize(t);
  if (!in.read(reinterpret_cast<char*>(b), std::streamsize(n))) throw std::runtime_error("PLY: file ends early");
  if (t == "char" || t == "int8") return double(int8_t(b[0]));
  if (t == "uchar" || t == "uint8") return double(b[0]);
  if (t == "short" || t == "int16") { int16_t v; std::memcpy(&v, b, 2); return v; }
  if (t == "ushort" || t == "uint16") { uint16_t v; std::memcpy(&v, b, 2); return v; }
  if (t == "int" || t == "int32") { int32_t v; std::memcpy(&v, b, 4); return v; }
  if (t == "uint" || t == "uint32") { uint32_t v; std::memcpy(&v, b, 4); return v; }
  if (t == "float" || t == "float32") { float v; std::memcpy(&v, b, 4); return v; }
  double v;
  std::memcpy(&v, b, 8);
  return v;
}

}  // namespace

TriangleMesh readPlyMesh(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string line, format;
  std::vector<std::pair<std::string, size_t>> elements;
  std::vector<std::vector<Property>> props;
  std::getline(in, line);
  if (line.rfind("ply", 0) != 0) throw std::runtime_error(path + " is not a PLY file");
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream ls(line);
    std::string key;
    ls >> key;
    if (key == "format") ls >> format;
    else if (key == "element") {
      std::string name;
      size_t count = 0;
      ls >> name >> count;
      elements.emplace_back(name, count);
      props.emplace_back();
    } else if (key == "property") {
      if (props.empty()) throw std::runtime_error("PLY: property before element");
      Property p;
      std::string type;
      ls >> type;
      if (type == "list") ls >> p.countType >> p.type >> p.name;
      else { p.type = type; ls >> p.name; }
      props.back().push_back(p);
    } else if (key == "end_header") break;
  }
  const bool ascii = format == "ascii";
  if (!ascii && format != "binary_little_endian") throw std::runtime_error("PLY: unsupported format " + format);
  TriangleMesh mesh;
  for (size_t e = 0; e < elements.size(); ++e) {
    const auto& [name, count] = elements[e];
    for (size_t i = 0; i < count; ++i) {
      Eigen::Vector3f xyz = Eigen::Vector3f::Zero();
      std::vector<int> corners;
      std::istringstream row;
      if (ascii) {
        if (!std::getline(in, line)) throw std::runtime_error("PLY: file ends early");
        row.str(line);
      }
      auto next = [&](const std::string& type) {
        if (!ascii) return readBinary(in, type);
        double v;
        if (!(row >> v)) throw std::runtime_error("PLY: short row");
        return v;
      };
      for (const Property& p : props[e]) {
        if (!p.countType.empty()) {
          int n = int(next(p.countType));
          for (int k = 0; k < n; ++k) {
            double v = next(p.type);
            if (name == "face" && (p.name == "vertex_indices" || p.name == "vertex_index")) corners.push_back(int(v));
          }
        } else {
          double v = next(p.type);
          if (name == "vertex") {
            if (p.name == "x") xyz.x() = float(v);
            else if (p.name == "y") xyz.y() = float(v);
            else if (p.name == "z") xyz.z() = float(v);
          }
        }
      }
      if (name == "vertex") mesh.vertices.push_back(xyz);
      else if (name == "face") {
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
