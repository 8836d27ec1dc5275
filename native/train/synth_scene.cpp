// sr-train-scene: writes a synthetic training set for sr-train (benches only): a ground-truth splat — a
// striped sphere on a checkered floor — photographed by N cameras on a ring around it (rendered with our
// rasterizer), as a COLMAP model (sparse/*.bin, PINHOLE), the photos (images/*.png), the held-out list
// (every 8th frame, as the worker holds out) and the points to start from (points.ply): the ground truth's
// centres jittered, plus stray points between the cameras and the scene — the floaters a real dense cloud has.
// With --sh-degree the ground truth's colours change with the view (random spherical harmonics of degrees 1..D,
// each coefficient uniform in ±--sh-amplitude); --truth writes the ground truth itself as a 3DGS .ply, so other
// renderers can be checked against these photos (tests/integration/scan-evaluation.test.ts).
//
//   sr-train-scene --output DIR [--frames 48] [--width 640] [--height 480] [--gaussians 20000]
//                  [--init-points 6000] [--floaters 1500] [--seed 1] [--sh-degree 0] [--sh-amplitude 0.15] [--truth FILE]
#include <Eigen/Geometry>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "lib/colmap_io.h"
#include "lib/image.h"
#include "lib/progress.h"
#include "train/raster.h"
#include "train/training.h"

namespace fs = std::filesystem;
using namespace sr::train;

namespace {

constexpr float kBackground[3] = {0.08f, 0.09f, 0.12f};

float logit(float p) { return std::log(p / (1.f - p)); }

// Half on the sphere (radius 1, stripes by latitude and longitude), half on the floor (y = 1, checkered);
// flat gaussians lying in the surface.
Gaussians groundTruth(size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> uni(0.f, 1.f);
  Gaussians g;
  g.resize(n);
  for (size_t i = 0; i < n; i++) {
    float p[3], rgb[3];
    Eigen::Vector3f normal;
    if (i % 2 == 0) {
      const float z = 2.f * uni(rng) - 1.f, phi = 6.2831853f * uni(rng), r = std::sqrt(1.f - z * z);
      p[0] = r * std::cos(phi), p[1] = z, p[2] = r * std::sin(phi);
      normal = Eigen::Vector3f(p[0], p[1], p[2]);
      const bool band = int(std::floor((z + 1.f) * 4.f)) % 2 == 0, sector = int(std::floor(phi / 6.2831853f * 12.f)) % 2 == 0;
      rgb[0] = band ? 0.85f : 0.2f, rgb[1] = sector ? 0.7f : 0.25f, rgb[2] = band == sector ? 0.3f : 0.8f;
    } else {
      p[0] = 6.f * uni(rng) - 3.f, p[1] = 1.f, p[2] = 6.f * uni(rng) - 3.f;
      normal = Eigen::Vector3f(0.f, 1.f, 0.f);
      const bool check = (int(std::floor(p[0] * 2.f + 10.f)) + int(std::floor(p[2] * 2.f + 10.f))) % 2 == 0;
      rgb[0] = rgb[1] = rgb[2] = check ? 0.75f : 0.35f;
    }
    // Rotation taking the local z axis (the thin one) onto the normal.
    const Eigen::Quaternionf q = Eigen::Quaternionf::FromTwoVectors(Eigen::Vector3f::UnitZ(), normal.normalized());
    g.quat[4 * i] = q.w(), g.quat[4 * i + 1] = q.x(), g.quat[4 * i + 2] = q.y(), g.quat[4 * i + 3] = q.z();
    const float size = i % 2 == 0 ? 0.03f : 0.06f;
    g.logScale[3 * i] = g.logScale[3 * i + 1] = std::log(size), g.logScale[3 * i + 2] = std::log(0.2f * size);
    for (int k = 0; k < 3; k++) g.mean[3 * i + k] = p[k], g.color[3 * i + k] = (rgb[k] - 0.5f) / kSHC0;
    g.opacity[i] = logit(0.95f);
  }
  return g;
}

// A camera at `center` looking at `target` (COLMAP: x right, y down, z forward).
sr::Image lookAt(uint32_t id, const Eigen::Vector3d& center, const Eigen::Vector3d& target) {
  const Eigen::Vector3d z = (target - center).normalized();
  const Eigen::Vector3d x = Eigen::Vector3d(0, 1, 0).cross(z).normalized();  // world y points down (the floor is at y = 1)
  const Eigen::Vector3d y = z.cross(x);
  Eigen::Matrix3d R;
  R.row(0) = x.transpose(), R.row(1) = y.transpose(), R.row(2) = z.transpose();
  sr::Image image;
  image.id = id, image.camera_id = 1;
  image.q = Eigen::Quaterniond(R);
  image.t = -R * center;
  return image;
}

void writePointsPly(const std::vector<float>& xyz, const std::vector<uint8_t>& rgb, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  const size_t n = xyz.size() / 3;
  out << "ply\nformat binary_little_endian 1.0\nelement vertex " << n
      << "\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n";
  for (size_t i = 0; i < n; i++) {
    out.write(reinterpret_cast<const char*>(&xyz[3 * i]), 12);
    out.write(reinterpret_cast<const char*>(&rgb[3 * i]), 3);
  }
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const sr::Args args(argc, argv);
    const std::string dir = args.required("output");
    const int frames = args.integer("frames", 48), width = args.integer("width", 640), height = args.integer("height", 480);
    const size_t gaussians = size_t(args.integer("gaussians", 20000)), initPoints = size_t(args.integer("init-points", 6000));
    const size_t floaters = size_t(args.integer("floaters", 1500));
    if (frames < 2 || width < 32 || height < 32 || gaussians < 2 || initPoints < 1) throw std::runtime_error("frames, size, gaussians and init points must be positive");
    std::mt19937 rng(uint32_t(args.integer("seed", 1)));
    fs::create_directories(dir + "/images"), fs::create_directories(dir + "/sparse");
    Gaussians truth = groundTruth(gaussians, rng);
    truth.shDegree = std::clamp(args.integer("sh-degree", 0), 0, kMaxShDegree);
    if (truth.shDegree > 0) {
      std::uniform_real_distribution<float> coefficient(-1.f, 1.f);
      const float amplitude = float(args.num("sh-amplitude", 0.15));
      const int rest = shRestOf(truth.shDegree);
      for (size_t i = 0; i < truth.size(); i++)
        for (int k = 0; k < 3 * rest; k++) truth.sh[size_t(3 * kShRest) * i + size_t(k)] = amplitude * coefficient(rng);
    }
    if (args.has("truth")) writeSplatPly(truth, args.str("truth"));

    sr::Model model;
    sr::Camera camera;
    camera.id = 1, camera.model = 1, camera.width = width, camera.height = height;
    const double f = 0.8 * width;
    camera.params = {f, f, width / 2.0, height / 2.0};
    model.cameras[1] = camera;
    std::ofstream holdout(dir + "/holdout.txt");
    for (int k = 0; k < frames; k++) {
      // A ring at radius 4, rising and falling a little so views differ in height too.
      const double angle = 6.283185307179586 * k / frames, rise = -0.6 - 0.4 * std::sin(3.0 * angle);
      sr::Image image = lookAt(uint32_t(k + 1), {4.0 * std::cos(angle), rise, 4.0 * std::sin(angle)}, {0, 0.2, 0});
      char name[32];
      std::snprintf(name, sizeof name, "frame_%04d.png", k + 1);
      image.name = name;
      Camera cam{};
      const Eigen::Matrix3d R = image.R();
      for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) cam.R[3 * r + c] = float(R(r, c));
        cam.t[r] = float(image.t[r]);
      }
      cam.fx = cam.fy = float(f), cam.cx = width / 2.f, cam.cy = height / 2.f, cam.width = width, cam.height = height, cam.near = 0.3f;
      Render r;
      render(truth, cam, kBackground, r);
      sr::ImageRGB photo(width, height);
      photo.data = r.rgb;
      sr::saveImage(photo, dir + "/images/" + image.name);
      if (k % 8 == 0) holdout << image.name << "\n";
      model.images.push_back(std::move(image));
    }
    sr::writeModelBinary(model, dir + "/sparse");

    // Points to start from: ground-truth centres 3 cm off with their colour 10 % off, and floaters.
    std::normal_distribution<float> jitter(0.f, 0.03f), tint(0.f, 0.1f);
    std::uniform_real_distribution<float> uni(-1.f, 1.f);
    std::vector<float> xyz;
    std::vector<uint8_t> rgb;
    for (size_t k = 0; k < initPoints; k++) {
      const size_t i = (k * 7919) % truth.size();
      for (int c = 0; c < 3; c++) {
        xyz.push_back(truth.mean[3 * i + c] + jitter(rng));
        const float v = 0.5f + kSHC0 * truth.color[3 * i + c] + tint(rng);
        rgb.push_back(uint8_t(std::lround(255.f * std::clamp(v, 0.f, 1.f))));
      }
    }
    for (size_t k = 0; k < floaters; k++) {
      // In the shell between the scene and the cameras (radius 1.3–3.2), above the floor.
      Eigen::Vector3f d(uni(rng), 0.5f * uni(rng) - 0.3f, uni(rng));
      const Eigen::Vector3f p = d.normalized() * (1.3f + 0.95f * (uni(rng) + 1.f));
      for (int c = 0; c < 3; c++) xyz.push_back(p[c]), rgb.push_back(uint8_t(128 + 120 * uni(rng)));
    }
    writePointsPly(xyz, rgb, dir + "/points.ply");
    std::printf("%d frames %dx%d, %zu ground-truth gaussians, %zu points to start from (%zu floaters) in %s\n", frames, width, height, truth.size(), xyz.size() / 3,
                floaters, dir.c_str());
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "sr-train-scene: %s\n", error.what());
    return 1;
  }
}
