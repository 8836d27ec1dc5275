// For tests of an options struct's Check(): what it refuses the options with, or "accepted".
#pragma once
#include <stdexcept>
#include <string>

template <typename Options>
std::string refusalOf(const Options& options) {
  try {
    options.Check();
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "accepted";
}
