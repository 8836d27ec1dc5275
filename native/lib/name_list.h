// A text file of names, one per line (held-out frames, views to skip): blank lines and trailing spaces ignored.
#pragma once
#include <set>
#include <string>

namespace sr {
// An empty path gives an empty set; an unreadable file throws std::runtime_error.
std::set<std::string> readNameList(const std::string& path);
}  // namespace sr
