#include "lib/ply_io.h"

#include <cstdint>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace sr {

int PlyElement::find(const std::string& property) const {
  for (size_t k = 0; k < properties.size(); ++k)
    if (properties[k].name == property) return int(k);
  return -1;
}

const PlyElement* PlyHeader::find(const std::string& element) const {
  for (const auto& e : elements)
    if (e.name == element) return &e;
  return nullptr;
}

size_t plyTypeSize(const std::string& t) {
  if (t == "char" || t == "uchar" || t == "int8" || t == "uint8") return 1;
  if (t == "short" || t == "ushort" || t == "int16" || t == "uint16") return 2;
  if (t == "int" || t == "uint" || t == "float" || t == "int32" || t == "uint32" || t == "float32") return 4;
  if (t == "double" || t == "float64") return 8;
  throw std::runtime_error("PLY: unsupported property type " + t);
}

double plyValueAt(const char* p, const std::string& t) {
  if (t == "uchar" || t == "uint8") return double(*reinterpret_cast<const uint8_t*>(p));
  if (t == "char" || t == "int8") return double(*reinterpret_cast<const int8_t*>(p));
  if (t == "float" || t == "float32") { float v; std::memcpy(&v, p, 4); return v; }
  if (t == "double" || t == "float64") { double v; std::memcpy(&v, p, 8); return v; }
  if (t == "int" || t == "int32") { int32_t v; std::memcpy(&v, p, 4); return v; }
  if (t == "uint" || t == "uint32") { uint32_t v; std::memcpy(&v, p, 4); return v; }
  if (t == "short" || t == "int16") { int16_t v; std::memcpy(&v, p, 2); return v; }
  if (t == "ushort" || t == "uint16") { uint16_t v; std::memcpy(&v, p, 2); return v; }
  throw std::runtime_error("PLY: unsupported property type " + t);
}

double readPlyValue(std::istream& in, const std::string& type) {
  char bytes[8];
  if (!in.read(bytes, std::streamsize(plyTypeSize(type)))) throw std::runtime_error("PLY: file ends early");
  return plyValueAt(bytes, type);
}

PlyHeader readPlyHeader(std::istream& in, const std::string& what) {
  std::string line;
  std::getline(in, line);
  if (line.rfind("ply", 0) != 0) throw std::runtime_error(what + " is not a PLY file");
  PlyHeader header;
  std::string format;
  bool ended = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "format") {
      words >> format;
    } else if (key == "element") {
      PlyElement element;
      if (!(words >> element.name >> element.count)) throw std::runtime_error(what + ": PLY element without a count");
      header.elements.push_back(element);
    } else if (key == "property") {
      if (header.elements.empty()) throw std::runtime_error(what + ": PLY property before element");
      PlyProperty property;
      std::string type;
      words >> type;
      if (type == "list") words >> property.countType >> property.type >> property.name;
      else property.type = type, words >> property.name;
      plyTypeSize(property.type);  // refuses an unknown type now
      if (!property.countType.empty()) plyTypeSize(property.countType);
      header.elements.back().properties.push_back(property);
    } else if (key == "end_header") {
      ended = true;
      break;
    }
  }
  if (!ended) throw std::runtime_error(what + ": the PLY header never ends");
  header.ascii = format == "ascii";
  if (!header.ascii && format != "binary_little_endian") throw std::runtime_error(what + ": unsupported PLY format " + format);
  for (auto& element : header.elements) {
    size_t offset = 0;
    bool fixed = true;
    for (auto& property : element.properties) {
      if (!property.countType.empty()) fixed = false;
      if (!fixed) continue;
      property.offset = offset;
      offset += plyTypeSize(property.type);
    }
    element.rowBytes = fixed ? offset : 0;
  }
  return header;
}

}  // namespace sr
