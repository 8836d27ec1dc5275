// Images as float RGB (0–1, linear in the file's own encoding: no colour-space change), loaded and
// saved with stb (Debian's libstb).
#pragma once
#include <string>
#include <vector>

namespace sr {

struct ImageRGB {
  int width = 0, height = 0;
  std::vector<float> data;  // interleaved RGB, row-major
  ImageRGB() = default;
  ImageRGB(int w, int h, float fill = 0.f) : width(w), height(h), data(size_t(w) * h * 3, fill) {}
  float* px(int x, int y) { return &data[(size_t(y) * width + x) * 3]; }
  const float* px(int x, int y) const { return &data[(size_t(y) * width + x) * 3]; }
  // Bilinear sample at continuous pixel coordinates (pixel centres at +0.5), clamped at the borders.
  void sample(float x, float y, float out[3]) const;
};

// Throws std::runtime_error when the file cannot be read.
ImageRGB loadImage(const std::string& path);
// .png or .jpg by extension (JPEG quality 95). Values are clamped to 0–1.
void saveImage(const ImageRGB& image, const std::string& path);
// Area-averaged resize (downscale) or bilinear (upscale).
ImageRGB resizeImage(const ImageRGB& image, int width, int height);
// Luminance (Rec. 601 weights), row-major.
std::vector<float> toGray(const ImageRGB& image);

}  // namespace sr
