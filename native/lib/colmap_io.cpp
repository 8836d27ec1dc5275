#include "lib/colmap_io.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>

namespace sr {
namespace {

int paramCount(int model) {
  switch (model) {
    case 0: return 3;   // SIMPLE_PINHOLE f cx cy
    case 1: return 4;   // PINHOLE fx fy cx cy
    case 2: return 4;   // SIMPLE_RADIAL f cx cy k
    case 3: return 5;   // RADIAL f cx cy k1 k2
    case 4: return 8;   // OPENCV
    case 5: return 8;   // OPENCV_FISHEYE
    case 6: return 12;  // FULL_OPENCV
    case 7: return 5;   // FOV
    case 8: return 4;   // SIMPLE_RADIAL_FISHEYE
    case 9: return 5;   // RADIAL_FISHEYE
    case 10: return 12; // THIN_PRISM_FISHEYE
    default: throw std::runtime_error("unknown COLMAP camera model " + std::to_string(model));
  }
}

const char* modelName(int model) {
  static const char* names[] = {"SIMPLE_PINHOLE", "PINHOLE", "SIMPLE_RADIAL", "RADIAL", "OPENCV", "OPENCV_FISHEYE",
                                "FULL_OPENCV", "FOV", "SIMPLE_RADIAL_FISHEYE", "RADIAL_FISHEYE", "THIN_PRISM_FISHEYE"};
  if (model < 0 || model > 10) throw std::runtime_error("unknown COLMAP camera model");
  return names[model];
}

int modelId(const std::string& name) {
  for (int i = 0; i <= 10; i++)
    if (name == modelName(i)) return i;
  throw std::runtime_error("unknown COLMAP camera model " + name);
}

bool exists(const std::string& path) {
  struct stat s;
  return stat(path.c_str(), &s) == 0;
}

template <typename T>
T get(std::istream& in) {
  T value;
  in.read(reinterpret_cast<char*>(&value), sizeof(T));
  if (!in) throw std::runtime_error("truncated COLMAP binary file");
  return value;
}

template <typename T>
void put(std::ostream& out, T value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof(T));
}

std::ifstream openIn(const std::string& path, bool binary) {
  std::ifstream in(path, binary ? std::ios::binary : std::ios::in);
  if (!in) throw std::runtime_error("cannot open " + path);
  return in;
}

std::ofstream openOut(const std::string& path, bool binary) {
  std::ofstream out(path, binary ? std::ios::binary : std::ios::out);
  if (!out) throw std::runtime_error("cannot write " + path);
  return out;
}

void readBinary(const std::string& dir, Model& model) {
  {
    auto in = openIn(dir + "/cameras.bin", true);
    const auto n = get<uint64_t>(in);
    for (uint64_t i = 0; i < n; i++) {
      Camera c;
      c.id = get<uint32_t>(in);
      c.model = get<int32_t>(in);
      c.width = int(get<uint64_t>(in));
      c.height = int(get<uint64_t>(in));
      c.params.resize(paramCount(c.model));
      for (auto& p : c.params) p = get<double>(in);
      model.cameras[c.id] = c;
    }
  }
  {
    auto in = openIn(dir + "/images.bin", true);
    const auto n = get<uint64_t>(in);
    for (uint64_t i = 0; i < n; i++) {
      Image im;
      im.id = get<uint32_t>(in);
      const double qw = get<double>(in), qx = get<double>(in), qy = get<double>(in), qz = get<double>(in);
      im.q = Eigen::Quaterniond(qw, qx, qy, qz);
      for (int k = 0; k < 3; k++) im.t[k] = get<double>(in);
      im.camera_id = get<uint32_t>(in);
      char ch;
      while ((ch = get<char>(in)) != '\0') im.name.push_back(ch);
      const auto m = get<uint64_t>(in);
      im.points2d.resize(m);
      im.point3d_ids.resize(m);
      for (uint64_t k = 0; k < m; k++) {
        im.points2d[k].x() = get<double>(in);
        im.points2d[k].y() = get<double>(in);
        im.point3d_ids[k] = get<int64_t>(in);
      }
      model.images.push_back(std::move(im));
    }
  }
  {
    auto in = openIn(dir + "/points3D.bin", true);
    const auto n = get<uint64_t>(in);
    model.points.reserve(n);
    for (uint64_t i = 0; i < n; i++) {
      Point3D p;
      p.id = int64_t(get<uint64_t>(in));
      for (int k = 0; k < 3; k++) p.xyz[k] = get<double>(in);
      for (int k = 0; k < 3; k++) p.rgb[k] = get<uint8_t>(in);
      p.error = get<double>(in);
      const auto len = get<uint64_t>(in);
      p.track.resize(len);
      for (uint64_t k = 0; k < len; k++) {
        p.track[k] = get<uint32_t>(in);
        (void)get<uint32_t>(in);
      }
      model.points.push_back(std::move(p));
    }
  }
}

// Lines that are not comments or blank.
std::vector<std::string> dataLines(const std::string& path) {
  auto in = openIn(path, false);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    lines.push_back(line);
  }
  return lines;
}

void readText(const std::string& dir, Model& model) {
  for (const auto& line : dataLines(dir + "/cameras.txt")) {
    std::istringstream s(line);
    Camera c;
    std::string name;
    s >> c.id >> name >> c.width >> c.height;
    c.model = modelId(name);
    c.params.resize(paramCount(c.model));
    for (auto& p : c.params) s >> p;
    if (!s) throw std::runtime_error("bad camera line: " + line);
    model.cameras[c.id] = c;
  }
  const auto imageLines = dataLines(dir + "/images.txt");
  // images.txt: two lines per image; the second (observations) may be empty and was dropped above,
  // so read it from the raw file instead.
  auto in = openIn(dir + "/images.txt", false);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    Image im;
    double qw, qx, qy, qz;
    s >> im.id >> qw >> qx >> qy >> qz >> im.t[0] >> im.t[1] >> im.t[2] >> im.camera_id >> im.name;
    if (!s) throw std::runtime_error("bad image line: " + line);
    im.q = Eigen::Quaterniond(qw, qx, qy, qz);
    std::string obs;
    std::getline(in, obs);
    std::istringstream o(obs);
    double x, y;
    int64_t pid;
    while (o >> x >> y >> pid) {
      im.points2d.emplace_back(x, y);
      im.point3d_ids.push_back(pid);
    }
    model.images.push_back(std::move(im));
  }
  (void)imageLines;
  for (const auto& l : dataLines(dir + "/points3D.txt")) {
    std::istringstream s(l);
    Point3D p;
    int r, g, b;
    s >> p.id >> p.xyz[0] >> p.xyz[1] >> p.xyz[2] >> r >> g >> b >> p.error;
    if (!s) throw std::runtime_error("bad point line: " + l);
    p.rgb[0] = uint8_t(r), p.rgb[1] = uint8_t(g), p.rgb[2] = uint8_t(b);
    uint32_t image, idx;
    while (s >> image >> idx) p.track.push_back(image);
    model.points.push_back(std::move(p));
  }
}

}  // namespace

double Camera::fx() const { return params.at(0); }
double Camera::fy() const { return model == 1 || model >= 4 ? params.at(1) : params.at(0); }
double Camera::cx() const { return model == 1 || model >= 4 ? params.at(2) : params.at(1); }
double Camera::cy() const { return model == 1 || model >= 4 ? params.at(3) : params.at(2); }

const Image* Model::imageByName(const std::string& name) const {
  for (const auto& im : images)
    if (im.name == name) return &im;
  return nullptr;
}

Model readModel(const std::string& dir) {
  Model model;
  if (exists(dir + "/cameras.bin")) readBinary(dir, model);
  else if (exists(dir + "/cameras.txt")) readText(dir, model);
  else throw std::runtime_error("no COLMAP model in " + dir);
  std::sort(model.images.begin(), model.images.end(), [](const Image& a, const Image& b) { return a.id < b.id; });
  for (const auto& im : model.images)
    if (!model.cameras.count(im.camera_id)) throw std::runtime_error("image " + im.name + " names a missing camera");
  return model;
}

void writeModelBinary(const Model& model, const std::string& dir) {
  {
    auto out = openOut(dir + "/cameras.bin", true);
    put<uint64_t>(out, model.cameras.size());
    for (const auto& [id, c] : model.cameras) {
      put<uint32_t>(out, c.id);
      put<int32_t>(out, c.model);
      put<uint64_t>(out, uint64_t(c.width));
      put<uint64_t>(out, uint64_t(c.height));
      for (double p : c.params) put<double>(out, p);
    }
  }
  {
    auto out = openOut(dir + "/images.bin", true);
    put<uint64_t>(out, model.images.size());
    for (const auto& im : model.images) {
      put<uint32_t>(out, im.id);
      put<double>(out, im.q.w()), put<double>(out, im.q.x()), put<double>(out, im.q.y()), put<double>(out, im.q.z());
      for (int k = 0; k < 3; k++) put<double>(out, im.t[k]);
      put<uint32_t>(out, im.camera_id);
      out.write(im.name.c_str(), std::streamsize(im.name.size() + 1));
      put<uint64_t>(out, im.points2d.size());
      for (size_t k = 0; k < im.points2d.size(); k++) {
        put<double>(out, im.points2d[k].x());
        put<double>(out, im.points2d[k].y());
        put<int64_t>(out, im.point3d_ids[k]);
      }
    }
  }
  {
    auto out = openOut(dir + "/points3D.bin", true);
    put<uint64_t>(out, model.points.size());
    for (const auto& p : model.points) {
      put<uint64_t>(out, uint64_t(p.id));
      for (int k = 0; k < 3; k++) put<double>(out, p.xyz[k]);
      for (int k = 0; k < 3; k++) put<uint8_t>(out, p.rgb[k]);
      put<double>(out, p.error);
      put<uint64_t>(out, p.track.size());
      for (uint32_t image : p.track) {
        put<uint32_t>(out, image);
        put<uint32_t>(out, 0);
      }
    }
  }
}

void writeModelText(const Model& model, const std::string& dir) {
  {
    auto out = openOut(dir + "/cameras.txt", false);
    out.precision(17);
    for (const auto& [id, c] : model.cameras) {
      out << c.id << ' ' << modelName(c.model) << ' ' << c.width << ' ' << c.height;
      for (double p : c.params) out << ' ' << p;
      out << '\n';
    }
  }
  {
    auto out = openOut(dir + "/images.txt", false);
    out.precision(17);
    for (const auto& im : model.images) {
      out << im.id << ' ' << im.q.w() << ' ' << im.q.x() << ' ' << im.q.y() << ' ' << im.q.z() << ' ' << im.t[0] << ' ' << im.t[1]
          << ' ' << im.t[2] << ' ' << im.camera_id << ' ' << im.name << '\n';
      for (size_t k = 0; k < im.points2d.size(); k++)
        out << (k ? " " : "") << im.points2d[k].x() << ' ' << im.points2d[k].y() << ' ' << im.point3d_ids[k];
      out << '\n';
    }
  }
  {
    auto out = openOut(dir + "/points3D.txt", false);
    out.precision(17);
    for (const auto& p : model.points) {
      out << p.id << ' ' << p.xyz[0] << ' ' << p.xyz[1] << ' ' << p.xyz[2] << ' ' << int(p.rgb[0]) << ' ' << int(p.rgb[1]) << ' '
          << int(p.rgb[2]) << ' ' << p.error;
      for (uint32_t image : p.track) out << ' ' << image << " 0";
      out << '\n';
    }
  }
}

FloatMap readFloatMap(const std::string& path) {
  auto in = openIn(path, true);
  FloatMap map;
  char amp;
  in >> map.width >> amp >> map.height >> amp >> map.channels >> amp;
  if (!in || map.width <= 0 || map.height <= 0 || map.channels <= 0) throw std::runtime_error("bad dense map header in " + path);
  map.data.resize(size_t(map.width) * map.height * map.channels);
  in.read(reinterpret_cast<char*>(map.data.data()), std::streamsize(map.data.size() * sizeof(float)));
  if (!in) throw std::runtime_error("truncated dense map " + path);
  return map;
}

void writeFloatMap(const FloatMap& map, const std::string& path) {
  auto out = openOut(path, true);
  out << map.width << '&' << map.height << '&' << map.channels << '&';
  out.write(reinterpret_cast<const char*>(map.data.data()), std::streamsize(map.data.size() * sizeof(float)));
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace sr
