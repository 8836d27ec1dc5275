#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <unistd.h>

#include "lib/colmap_io.h"
#include "lib/image.h"

namespace fs = std::filesystem;

static fs::path tempDir(const char* name) {
  auto dir = fs::temp_directory_path() / (std::string("srtest-") + name + "-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

static sr::Model sampleModel() {
  sr::Model m;
  sr::Camera c;
  c.id = 1, c.model = 1, c.width = 640, c.height = 480, c.params = {500, 510, 320, 240};
  m.cameras[1] = c;
  for (uint32_t i = 1; i <= 2; i++) {
    sr::Image im;
    im.id = i, im.camera_id = 1, im.name = "frame-" + std::to_string(i) + ".jpg";
    im.q = Eigen::Quaterniond(Eigen::AngleAxisd(0.1 * i, Eigen::Vector3d::UnitY()));
    im.t = Eigen::Vector3d(0.5 * i, -0.25, 3.0);
    im.points2d = {{10.5, 20.25}, {30, 40}};
    im.point3d_ids = {7, -1};
    m.images.push_back(im);
  }
  sr::Point3D p;
  p.id = 7, p.xyz = Eigen::Vector3d(0.1, 0.2, 0.3), p.rgb[0] = 200, p.rgb[1] = 100, p.rgb[2] = 50, p.error = 0.42, p.track = {1, 2};
  m.points.push_back(p);
  return m;
}

static void expectSame(const sr::Model& a, const sr::Model& b) {
  ASSERT_EQ(a.cameras.size(), b.cameras.size());
  EXPECT_EQ(a.cameras.at(1).params, b.cameras.at(1).params);
  ASSERT_EQ(a.images.size(), b.images.size());
  for (size_t i = 0; i < a.images.size(); i++) {
    EXPECT_EQ(a.images[i].name, b.images[i].name);
    EXPECT_NEAR((a.images[i].center() - b.images[i].center()).norm(), 0, 1e-12);
    EXPECT_EQ(a.images[i].point3d_ids, b.images[i].point3d_ids);
  }
  ASSERT_EQ(a.points.size(), b.points.size());
  EXPECT_NEAR((a.points[0].xyz - b.points[0].xyz).norm(), 0, 1e-12);
  EXPECT_EQ(a.points[0].track, b.points[0].track);
  EXPECT_EQ(int(a.points[0].rgb[0]), int(b.points[0].rgb[0]));
}

TEST(ColmapIo, BinaryModelRoundTrips) {
  const auto dir = tempDir("bin");
  const auto model = sampleModel();
  sr::writeModelBinary(model, dir.string());
  expectSame(model, sr::readModel(dir.string()));
  fs::remove_all(dir);
}

TEST(ColmapIo, TextModelRoundTrips) {
  const auto dir = tempDir("txt");
  const auto model = sampleModel();
  sr::writeModelText(model, dir.string());
  expectSame(model, sr::readModel(dir.string()));
  fs::remove_all(dir);
}

TEST(ColmapIo, DenseMapRoundTripsInColmapLayout) {
  const auto dir = tempDir("map");
  sr::FloatMap map(5, 3, 3);
  for (int c = 0; c < 3; c++)
    for (int r = 0; r < 3; r++)
      for (int x = 0; x < 5; x++) map.at(r, x, c) = float(100 * c + 10 * r + x);
  sr::writeFloatMap(map, (dir / "m.bin").string());
  // COLMAP's layout: a text header, then channel planes of row-major floats.
  FILE* f = std::fopen((dir / "m.bin").c_str(), "rb");
  char header[7] = {0};
  ASSERT_EQ(std::fread(header, 1, 6, f), 6u);
  EXPECT_STREQ(header, "5&3&3&");
  float first[6];
  ASSERT_EQ(std::fread(first, sizeof(float), 6, f), 6u);
  std::fclose(f);
  EXPECT_EQ(first[5], 10.f);  // row 1, col 0 of channel 0
  const auto back = sr::readFloatMap((dir / "m.bin").string());
  EXPECT_EQ(back.data, map.data);
  fs::remove_all(dir);
}

TEST(Image, PngRoundTripAndAreaResize) {
  const auto dir = tempDir("img");
  sr::ImageRGB image(4, 2);
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 4; x++)
      for (int k = 0; k < 3; k++) image.px(x, y)[k] = (x + y * 4) / 8.f;
  sr::saveImage(image, (dir / "a.png").string());
  const auto back = sr::loadImage((dir / "a.png").string());
  ASSERT_EQ(back.width, 4);
  for (size_t i = 0; i < image.data.size(); i++) EXPECT_NEAR(back.data[i], image.data[i], 0.5 / 255.0 + 1e-6);
  const auto half = sr::resizeImage(image, 2, 1);
  // Each output pixel is the mean of a 2×2 block.
  EXPECT_NEAR(half.px(0, 0)[0], (0 + 1 + 4 + 5) / 32.f, 1e-6);
  EXPECT_NEAR(half.px(1, 0)[0], (2 + 3 + 6 + 7) / 32.f, 1e-6);
  fs::remove_all(dir);
}

#include <sstream>

#include "lib/ply_io.h"

TEST(PlyIo, HeaderOfBinaryPointsGivesRowLayout) {
  std::istringstream in(std::string(
      "ply\r\nformat binary_little_endian 1.0\ncomment made by a test\nelement vertex 2\nproperty double x\nproperty float y\n"
      "property float z\nproperty uchar red\nproperty short t\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"));
  const sr::PlyHeader header = sr::readPlyHeader(in, "points.ply");
  EXPECT_FALSE(header.ascii);
  ASSERT_EQ(header.elements.size(), 2u);
  const sr::PlyElement* vertex = header.find("vertex");
  ASSERT_NE(vertex, nullptr);
  EXPECT_EQ(vertex->count, 2u);
  EXPECT_EQ(vertex->rowBytes, 8u + 4 + 4 + 1 + 2);
  EXPECT_EQ(vertex->properties[vertex->find("red")].offset, 16u);
  EXPECT_EQ(vertex->find("blue"), -1);
  const sr::PlyElement* face = header.find("face");
  ASSERT_NE(face, nullptr);
  EXPECT_EQ(face->rowBytes, 0u);  // a list: rows differ in length
  EXPECT_EQ(face->properties[0].countType, "uchar");
  EXPECT_EQ(face->properties[0].type, "int");
  EXPECT_EQ(header.find("edge"), nullptr);
  EXPECT_EQ(in.tellg(), std::streampos(in.str().size()));  // left at the body
}

TEST(PlyIo, ValuesOfEveryTypeReadLittleEndian) {
  const unsigned char bytes[] = {0xfe, 0x34, 0x12, 0x00, 0x00, 0xc0, 0x3f};
  const char* p = reinterpret_cast<const char*>(bytes);
  EXPECT_EQ(sr::plyValueAt(p, "uchar"), 254);
  EXPECT_EQ(sr::plyValueAt(p, "char"), -2);
  EXPECT_EQ(sr::plyValueAt(p + 1, "ushort"), 0x1234);
  EXPECT_EQ(sr::plyValueAt(p + 3, "float"), 1.5);
  std::istringstream in(std::string(p + 3, 4));
  EXPECT_EQ(sr::readPlyValue(in, "float32"), 1.5);
  EXPECT_THROW(sr::readPlyValue(in, "float32"), std::runtime_error);  // the file ends
  EXPECT_EQ(sr::plyTypeSize("float64"), 8u);
}

TEST(PlyIo, RefusesWhatItCannotRead) {
  auto header = [](const std::string& text) {
    std::istringstream in(text);
    return sr::readPlyHeader(in, "model.ply");
  };
  EXPECT_THROW(header("glTF\n"), std::runtime_error);
  EXPECT_THROW(header("ply\nformat binary_big_endian 1.0\nelement vertex 1\nproperty float x\nend_header\n"), std::runtime_error);
  EXPECT_THROW(header("ply\nformat ascii 1.0\nelement vertex 1\nproperty half x\nend_header\n"), std::runtime_error);
  EXPECT_THROW(header("ply\nformat ascii 1.0\nproperty float x\nend_header\n"), std::runtime_error);
  EXPECT_THROW(header("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"), std::runtime_error);
  EXPECT_TRUE(header("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n").ascii);
}
