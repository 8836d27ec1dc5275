#include "lib/image.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <stb_image.h>
#include <stb_image_write.h>

namespace sr {

void ImageRGB::sample(float x, float y, float out[3]) const {
  x -= 0.5f, y -= 0.5f;
  const float fx = std::floor(x), fy = std::floor(y);
  const float ax = x - fx, ay = y - fy;
  const int x0 = std::clamp(int(fx), 0, width - 1), x1 = std::clamp(int(fx) + 1, 0, width - 1);
  const int y0 = std::clamp(int(fy), 0, height - 1), y1 = std::clamp(int(fy) + 1, 0, height - 1);
  const float *a = px(x0, y0), *b = px(x1, y0), *c = px(x0, y1), *d = px(x1, y1);
  for (int k = 0; k < 3; k++) out[k] = (a[k] * (1 - ax) + b[k] * ax) * (1 - ay) + (c[k] * (1 - ax) + d[k] * ax) * ay;
}

ImageRGB loadImage(const std::string& path) {
  int w, h, n;
  unsigned char* pixels = stbi_load(path.c_str(), &w, &h, &n, 3);
  if (!pixels) throw std::runtime_error("cannot read image " + path + ": " + (stbi_failure_reason() ? stbi_failure_reason() : "unknown"));
  ImageRGB image(w, h);
  for (size_t i = 0; i < image.data.size(); i++) image.data[i] = pixels[i] / 255.f;
  stbi_image_free(pixels);
  return image;
}

void saveImage(const ImageRGB& image, const std::string& path) {
  std::vector<unsigned char> bytes(image.data.size());
  for (size_t i = 0; i < bytes.size(); i++) bytes[i] = (unsigned char)std::lround(std::clamp(image.data[i], 0.f, 1.f) * 255.f);
  const bool jpg = path.size() > 4 && (path.substr(path.size() - 4) == ".jpg" || path.substr(path.size() - 5) == ".jpeg");
  const int ok = jpg ? stbi_write_jpg(path.c_str(), image.width, image.height, 3, bytes.data(), 95)
                     : stbi_write_png(path.c_str(), image.width, image.height, 3, bytes.data(), image.width * 3);
  if (!ok) throw std::runtime_error("cannot write image " + path);
}

ImageRGB resizeImage(const ImageRGB& image, int width, int height) {
  ImageRGB out(width, height);
  const float sx = float(image.width) / width, sy = float(image.height) / height;
  if (sx <= 1.f && sy <= 1.f) {
    for (int y = 0; y < height; y++)
      for (int x = 0; x < width; x++) image.sample((x + 0.5f) * sx, (y + 0.5f) * sy, out.px(x, y));
    return out;
  }
  // Area average: each output pixel covers [x*sx, (x+1)*sx) × [y*sy, (y+1)*sy) of the input.
  for (int y = 0; y < height; y++) {
    const float y0 = y * sy, y1 = (y + 1) * sy;
    for (int x = 0; x < width; x++) {
      const float x0 = x * sx, x1 = (x + 1) * sx;
      float sum[3] = {0, 0, 0}, weight = 0;
      for (int iy = int(y0); iy < std::min(image.height, int(std::ceil(y1))); iy++) {
        const float wy = std::min(y1, float(iy + 1)) - std::max(y0, float(iy));
        for (int ix = int(x0); ix < std::min(image.width, int(std::ceil(x1))); ix++) {
          const float w = wy * (std::min(x1, float(ix + 1)) - std::max(x0, float(ix)));
          const float* p = image.px(ix, iy);
          for (int k = 0; k < 3; k++) sum[k] += w * p[k];
          weight += w;
        }
      }
      for (int k = 0; k < 3; k++) out.px(x, y)[k] = weight > 0 ? sum[k] / weight : 0.f;
    }
  }
  return out;
}

std::vector<float> toGray(const ImageRGB& image) {
  std::vector<float> gray(size_t(image.width) * image.height);
  for (size_t i = 0; i < gray.size(); i++) {
    const float* p = &image.data[i * 3];
    gray[i] = 0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2];
  }
  return gray;
}

}  // namespace sr
