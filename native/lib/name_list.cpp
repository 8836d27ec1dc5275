#include "lib/name_list.h"

#include <fstream>
#include <stdexcept>

namespace sr {

std::set<std::string> readNameList(const std::string& path) {
  std::set<std::string> names;
  if (path.empty()) return names;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) names.insert(line);
  }
  return names;
}

}  // namespace sr
