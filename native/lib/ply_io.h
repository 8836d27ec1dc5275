// Reading PLY files (ASCII or binary little-endian): the header, and values of any numeric property type. The
// one PLY reader of the native programs — sr-mesh reads COLMAP's meshes with it, sr-train the fused points.
#pragma once
#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace sr {

struct PlyProperty {
  std::string name;
  std::string type;       // the value type (of a list's items, for a list)
  std::string countType;  // a list's count type; empty for a plain property
  size_t offset = 0;      // bytes from the start of a binary row (plain properties before the first list only)
};

struct PlyElement {
  std::string name;
  size_t count = 0;
  std::vector<PlyProperty> properties;
  // Bytes of one binary row when every property is plain; 0 when the element has a list.
  size_t rowBytes = 0;
  int find(const std::string& property) const;  // index in properties, or -1
};

struct PlyHeader {
  bool ascii = false;  // otherwise binary little-endian (big-endian files are refused)
  std::vector<PlyElement> elements;
  const PlyElement* find(const std::string& element) const;  // nullptr when absent
};

// Reads the header from `in`, leaving it at the first byte of the body; `what` names the file in errors.
// Throws std::runtime_error on a file that is not PLY or that we cannot read.
PlyHeader readPlyHeader(std::istream& in, const std::string& what);

// Bytes of a binary value of `type` (char … double, int8 … float64); throws for an unknown type.
size_t plyTypeSize(const std::string& type);

// The little-endian value of `type` at `bytes`.
double plyValueAt(const char* bytes, const std::string& type);

// Reads the next binary value of `type` from a body; throws when the file ends first.
double readPlyValue(std::istream& in, const std::string& type);

}  // namespace sr
