// Triangle meshes in PLY (ASCII or binary little-endian, as COLMAP's poisson_mesher and delaunay_mesher
// write them): vertex x/y/z (any numeric type; other vertex properties are skipped) and a face list.
#pragma once
#include <Eigen/Core>
#include <string>
#include <vector>

namespace sr {

struct TriangleMesh {
  std::vector<Eigen::Vector3f> vertices;
  std::vector<Eigen::Vector3i> faces;  // polygons with more corners are fanned into triangles
};

// Throws std::runtime_error on a malformed or unsupported file.
TriangleMesh readPlyMesh(const std::string& path);

// OBJ with one texture coordinate per face corner (v, vt, f v/vt), glTF UV convention kept as written.
void writeTexturedObj(const std::string& path, const TriangleMesh& mesh, const std::vector<Eigen::Vector2f>& cornerUv);

}  // namespace sr
