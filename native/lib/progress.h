// The line protocol the scan worker reads from our programs' stdout (app/worker/tool-progress.ts):
//   progress <fraction 0–1> [message]
// Other lines are logged. Errors go to stderr and the program exits non-zero.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace sr {

void reportProgress(double fraction, const std::string& detail = "");
// Parses "--name value" pairs; flags without a value are not supported (use "--flag 1").
class Args {
 public:
  Args(int argc, char** argv);
  bool has(const std::string& name) const;
  std::string str(const std::string& name, const std::string& fallback = "") const;
  // Throws std::runtime_error with the option's name when missing or not a number.
  std::string required(const std::string& name) const;
  double num(const std::string& name, double fallback) const;
  int integer(const std::string& name, int fallback) const;

 private:
  std::vector<std::pair<std::string, std::string>> values_;
};

}  // namespace sr
