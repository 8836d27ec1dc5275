// COLMAP model and dense-workspace I/O (COLMAP 3.8's binary and text formats).
#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sr {

// A camera reduced to what our programs use. Undistorted workspaces hold PINHOLE / SIMPLE_PINHOLE
// cameras; other models keep their parameters but only fx, fy, cx, cy are read here.
struct Camera {
  uint32_t id = 0;
  int model = 1;  // COLMAP model id: 0 SIMPLE_PINHOLE, 1 PINHOLE, 2 SIMPLE_RADIAL, ...
  int width = 0, height = 0;
  std::vector<double> params;
  double fx() const;
  double fy() const;
  double cx() const;
  double cy() const;
};

struct Image {
  uint32_t id = 0;
  uint32_t camera_id = 0;
  std::string name;
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();  // world → camera rotation
  Eigen::Vector3d t = Eigen::Vector3d::Zero();            // world → camera translation
  std::vector<int64_t> point3d_ids;                        // per 2D observation, -1 when none
  std::vector<Eigen::Vector2d> points2d;
  Eigen::Matrix3d R() const { return q.normalized().toRotationMatrix(); }
  Eigen::Vector3d center() const { return -(R().transpose() * t); }
  // World point → camera frame.
  Eigen::Vector3d toCamera(const Eigen::Vector3d& X) const { return R() * X + t; }
};

struct Point3D {
  int64_t id = 0;
  Eigen::Vector3d xyz = Eigen::Vector3d::Zero();
  uint8_t rgb[3] = {0, 0, 0};
  double error = 0;
  std::vector<uint32_t> track;  // image ids that see the point
};

struct Model {
  std::map<uint32_t, Camera> cameras;
  std::vector<Image> images;  // in image-id order
  std::vector<Point3D> points;
  const Camera& cameraOf(const Image& image) const { return cameras.at(image.camera_id); }
  const Image* imageByName(const std::string& name) const;
};

// Reads cameras/images/points3D from a folder: .bin when present, else .txt. Throws std::runtime_error.
Model readModel(const std::string& dir);
void writeModelBinary(const Model& model, const std::string& dir);
void writeModelText(const Model& model, const std::string& dir);

// COLMAP's dense map format (mvs/mat.h): "width&height&channels&" then float32, planar by channel.
struct FloatMap {
  int width = 0, height = 0, channels = 1;
  std::vector<float> data;
  FloatMap() = default;
  FloatMap(int w, int h, int c, float fill = 0.f) : width(w), height(h), channels(c), data(size_t(w) * h * c, fill) {}
  float& at(int row, int col, int channel = 0) { return data[(size_t(channel) * height + row) * width + col]; }
  float at(int row, int col, int channel = 0) const { return data[(size_t(channel) * height + row) * width + col]; }
};
FloatMap readFloatMap(const std::string& path);
void writeFloatMap(const FloatMap& map, const std::string& path);

}  // namespace sr
