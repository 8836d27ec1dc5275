#include "lib/progress.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace sr {

void reportProgress(double fraction, const std::string& detail) {
  if (!std::isfinite(fraction)) fraction = 0;
  fraction = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
  std::printf("progress %.4f%s%s\n", fraction, detail.empty() ? "" : " ", detail.c_str());
  std::fflush(stdout);
}

Args::Args(int argc, char** argv) {
  for (int i = 1; i < argc; i++) {
    std::string key = argv[i];
    if (key.rfind("--", 0) != 0) throw std::runtime_error("unexpected argument " + key);
    if (i + 1 >= argc) throw std::runtime_error("option " + key + " needs a value");
    values_.emplace_back(key.substr(2), argv[++i]);
  }
}

bool Args::has(const std::string& name) const {
  for (const auto& [k, v] : values_)
    if (k == name) return true;
  return false;
}

std::string Args::str(const std::string& name, const std::string& fallback) const {
  for (const auto& [k, v] : values_)
    if (k == name) return v;
  return fallback;
}

std::string Args::required(const std::string& name) const {
  if (!has(name)) throw std::runtime_error("missing option --" + name);
  return str(name);
}

double Args::num(const std::string& name, double fallback) const {
  if (!has(name)) return fallback;
  const std::string text = str(name);
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (...) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(value)) throw std::runtime_error("option --" + name + " is not a number: " + text);
  return value;
}

int Args::integer(const std::string& name, int fallback) const {
  const double value = num(name, fallback);
  if (value != std::floor(value)) throw std::runtime_error("option --" + name + " is not a whole number");
  return int(value);
}

}  // namespace sr
