// sr-texture: baking known patterns. Planes seen by synthetic pinhole cameras; the baked texels, read back
// through the UVs, must show what the photos show. Plus the pieces: face adjacency, the view labelling,
// the atlas packing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "mesh/texture_bake.h"

namespace {

// Checkerboard on the plane z = 0 with 0.3-unit squares offset by 0.1 (edges cross the triangles): 0.9 or 0.1.
float checker(double x, double y) {
  int i = int(std::floor((x + 0.1) / 0.3)), j = int(std::floor((y + 0.1) / 0.3));
  return ((i + j) & 1) ? 0.9f : 0.1f;
}

// Within 0.03 units (3 photo pixels at these distances) of a square's edge, where photo and atlas blur it.
bool nearPatternEdge(double x) {
  double r = std::fmod(x + 0.1 + 3.0, 0.3);
  return r < 0.03 || r > 0.27;
}

// A camera at `centre` looking along +z (R = I) renders the plane analytically, 4×4 supersampled.
sr::TextureView planeView(const Eigen::Vector3d& centre, int W, int H, double f) {
  sr::TextureView v;
  v.fx = v.fy = f;
  v.cx = W / 2.0;
  v.cy = H / 2.0;
  v.t = -centre;
  v.image = sr::ImageRGB(W, H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float sum = 0;
      for (int sy = 0; sy < 4; ++sy)
        for (int sx = 0; sx < 4; ++sx) {
          double u = x + (sx + 0.5) / 4, w = y + (sy + 0.5) / 4;
          Eigen::Vector3d ray((u - v.cx) / f, (w - v.cy) / f, 1.0);
          double s = -centre.z() / ray.z();
          Eigen::Vector3d X = centre + s * ray;
          sum += checker(X.x(), X.y());
        }
      float* p = v.image.px(x, y);
      p[0] = p[1] = p[2] = sum / 16;
    }
  return v;
}

// An n×n grid of quads over [-1, 1]² at z = 0, wound so the normals point to -z (towards the cameras).
void planeGrid(int n, std::vector<Eigen::Vector3f>& V, std::vector<Eigen::Vector3i>& F) {
  V.clear();
  F.clear();
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) V.emplace_back(-1.f + 2.f * i / n, -1.f + 2.f * j / n, 0.f);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      int a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      F.emplace_back(a, c, b);
      F.emplace_back(b, c, d);
    }
}

// The atlas read at the point with barycentric weights w of face fi.
void atlasAt(const sr::BakedTexture& baked, size_t fi, float w0, float w1, float w2, float out[3]) {
  const Eigen::Vector2f uv = w0 * baked.uv[fi * 3] + w1 * baked.uv[fi * 3 + 1] + w2 * baked.uv[fi * 3 + 2];
  baked.atlas.sample(uv.x() * baked.atlas.width, uv.y() * baked.atlas.height, out);
}

TEST(TextureBake, CheckerboardPlaneFromTwoCameras) {
  std::vector<Eigen::Vector3f> V;
  std::vector<Eigen::Vector3i> F;
  planeGrid(8, V, F);
  std::vector<sr::TextureView> views = {planeView({-0.4, 0.0, -3.0}, 320, 240, 300.0),
                                        planeView({0.6, 0.2, -2.5}, 320, 240, 300.0)};
  sr::BakeOptions options;
  options.maxSide = 1024;
  sr::BakedTexture baked = sr::bakeTexture(V, F, views, options);
  ASSERT_EQ(baked.uv.size(), F.size() * 3);
  for (int view : baked.faceView) EXPECT_GE(view, 0);

  // Read the atlas back at points inside each triangle (barycentric grid) and compare to the pattern.
  std::vector<float> errors;
  for (size_t fi = 0; fi < F.size(); ++fi)
    for (int a = 1; a < 10; ++a)
      for (int b = 1; a + b < 10; ++b) {
        float w1 = a / 10.f, w2 = b / 10.f, w0 = 1 - w1 - w2;
        Eigen::Vector3f X = w0 * V[F[fi][0]] + w1 * V[F[fi][1]] + w2 * V[F[fi][2]];
        if (nearPatternEdge(X.x()) || nearPatternEdge(X.y())) continue;
        float texel[3];
        atlasAt(baked, fi, w0, w1, w2, texel);
        errors.push_back(std::abs(texel[0] - checker(X.x(), X.y())));
      }
  std::sort(errors.begin(), errors.end());
  ASSERT_GT(errors.size(), 1000u);
  float median = errors[errors.size() / 2], p99 = errors[errors.size() * 99 / 100], worst = errors.back();
  std::printf("checkerboard bake: %zu samples away from the squares' edges, |error| median %.4f, 99th %.4f, max %.4f"
              " (contrast 0.8; %d patches, atlas %d×%d, %.2f texels per pixel)\n", errors.size(), median, p99, worst, baked.patches,
              baked.atlas.width, baked.atlas.height, double(baked.texelsPerPixel));
  // Bounds (of a 0.8 contrast): median ≤ 0.02, 99th percentile ≤ 0.1, every sample ≤ 0.4 (on the right square).
  EXPECT_LE(median, 0.02f);
  EXPECT_LE(p99, 0.1f);
  EXPECT_LE(worst, 0.4f);
  // Neighbouring faces keep to one photo: two cameras see the whole plane, so a few patches at most.
  EXPECT_LE(baked.patches, 4);
}

TEST(TextureBake, PatchesCopyThePhotoPixelForPixel) {
  // One camera, a photo of independent random pixels: with room in the atlas, the texel under each pixel
  // centre's point on the plane is that very pixel (no resampling), so the texture is as sharp as the photo.
  std::vector<Eigen::Vector3f> V;
  std::vector<Eigen::Vector3i> F;
  planeGrid(4, V, F);
  sr::TextureView v;
  v.fx = v.fy = 160;
  v.cx = 100;
  v.cy = 80;
  v.t = Eigen::Vector3d(0.1, -0.05, 2.5);
  v.image = sr::ImageRGB(200, 160);
  uint32_t state = 7;
  for (float& value : v.image.data) state = state * 1664525u + 1013904223u, value = float(state >> 24) / 255.f;
  sr::BakedTexture baked = sr::bakeTexture(V, F, {v}, sr::BakeOptions{});
  EXPECT_EQ(baked.texelsPerPixel, 1.f);
  float worst = 0;
  size_t checked = 0;
  for (int y = 0; y < v.image.height; ++y)
    for (int x = 0; x < v.image.width; ++x) {
      // The plane point under this pixel centre, and the face holding it.
      const Eigen::Vector3d ray((x + 0.5 - v.cx) / v.fx, (y + 0.5 - v.cy) / v.fy, 1.0);
      const Eigen::Vector3d X = ray * (v.t.z() / ray.z()) - v.t;  // camera frame z = depth; R = I
      for (size_t fi = 0; fi < F.size(); ++fi) {
        const Eigen::Vector3d a = V[F[fi][0]].cast<double>(), b = V[F[fi][1]].cast<double>(), c = V[F[fi][2]].cast<double>();
        const Eigen::Vector3d n = (b - a).cross(c - a);
        const double w0 = (b - X).cross(c - X).dot(n) / n.squaredNorm(), w1 = (c - X).cross(a - X).dot(n) / n.squaredNorm(), w2 = 1 - w0 - w1;
        if (w0 < 0.02 || w1 < 0.02 || w2 < 0.02) continue;
        float texel[3];
        atlasAt(baked, fi, float(w0), float(w1), float(w2), texel);
        for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(texel[k] - v.image.px(x, y)[k]));
        ++checked;
        break;
      }
    }
  std::printf("pixel-for-pixel copy: %zu pixels checked, largest difference %.2e (bound 1e-3 of full scale)\n", checked, double(worst));
  ASSERT_GT(checked, 10000u);
  EXPECT_LE(worst, 1e-3f);
}

TEST(TextureBake, AtlasShrinksThePhotosWhenTheyDoNotFit) {
  std::vector<Eigen::Vector3f> V;
  std::vector<Eigen::Vector3i> F;
  planeGrid(8, V, F);
  std::vector<sr::TextureView> views = {planeView({0.0, 0.0, -1.5}, 640, 480, 300.0)};
  sr::BakeOptions options;
  options.maxSide = 256;
  sr::BakedTexture baked = sr::bakeTexture(V, F, views, options);
  std::printf("a %d-pixel-wide view of the plane into a %d-texel atlas: %d×%d at %.3f texels per pixel\n", 640, options.maxSide,
              baked.atlas.width, baked.atlas.height, double(baked.texelsPerPixel));
  EXPECT_LE(baked.atlas.width, 256);
  EXPECT_LE(baked.atlas.height, 256);
  EXPECT_LT(baked.texelsPerPixel, 1.f);
  // Still the checkerboard, box-filtered: the centre of each square reads its colour.
  std::vector<float> errors;
  for (size_t fi = 0; fi < F.size(); ++fi) {
    const Eigen::Vector3f X = (V[F[fi][0]] + V[F[fi][1]] + V[F[fi][2]]) / 3.f;
    if (nearPatternEdge(X.x()) || nearPatternEdge(X.y())) continue;
    float texel[3];
    atlasAt(baked, fi, 1 / 3.f, 1 / 3.f, 1 / 3.f, texel);
    errors.push_back(std::abs(texel[0] - checker(X.x(), X.y())));
  }
  std::sort(errors.begin(), errors.end());
  std::printf("face centres away from edges: %zu, |error| median %.4f (bound 0.05)\n", errors.size(), double(errors[errors.size() / 2]));
  EXPECT_LE(errors[errors.size() / 2], 0.05f);
}

TEST(TextureBake, HiddenFaceTakesTheViewThatSeesIt) {
  // Two parallel squares: the near one (z = 0, one face) hides part of the far one (z = 1) from a
  // camera straight in front; a second camera off to the side sees the far face's hidden part.
  std::vector<Eigen::Vector3f> V = {{-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}, {-0.2f, -0.2f, 1}, {0.2f, -0.2f, 1}, {-0.2f, 0.2f, 1}};
  std::vector<Eigen::Vector3i> F = {{0, 2, 1}, {3, 5, 4}};
  std::vector<sr::TextureView> views = {planeView({0.0, 0.0, -3.0}, 200, 200, 200.0),
                                        planeView({4.0, 0.0, -3.0}, 200, 200, 50.0)};
  // The side camera looks along +z too but is far off: the far face is in its image, the near one is not whole.
  std::vector<int> chosen = sr::selectViews(V, F, views);
  EXPECT_EQ(chosen[0], 0);
  EXPECT_EQ(chosen[1], 1);
}

// A square of two faces (normals towards -z) at z = 0 spanning [-0.5, 0.5]².
void unitSquare(std::vector<Eigen::Vector3f>& V, std::vector<Eigen::Vector3i>& F) {
  V = {{-0.5f, -0.5f, 0}, {0.5f, -0.5f, 0}, {-0.5f, 0.5f, 0}, {0.5f, 0.5f, 0}};
  F = {{0, 2, 1}, {1, 2, 3}};
}

sr::TextureView flatView(const Eigen::Vector3d& centre, double f, float grey) {
  sr::TextureView v;
  v.fx = v.fy = f;
  v.cx = v.cy = 100;
  v.t = -centre;
  v.image = sr::ImageRGB(200, 200, grey);
  return v;
}

TEST(TextureBake, ViewThatDisagreesIsOutvoted) {
  // Three cameras see a grey square; in the one that sees it largest, something the mesh does not hold
  // (a red occluder) covers it. The baked texture must show the grey the other two agree on.
  std::vector<Eigen::Vector3f> V;
  std::vector<Eigen::Vector3i> F;
  unitSquare(V, F);
  std::vector<sr::TextureView> views = {flatView({0, 0, -2}, 300, 0.4f), flatView({0.3, 0, -3}, 200, 0.4f), flatView({-0.3, 0.2, -3}, 200, 0.4f)};
  for (float& value : views[0].image.data) value = 0.f;
  for (int y = 0; y < 200; ++y)
    for (int x = 0; x < 200; ++x) views[0].image.px(x, y)[0] = 0.9f;
  EXPECT_EQ(sr::selectViews(V, F, views)[0], 0);  // the occluded view is the one that sees the face largest
  sr::BakedTexture baked = sr::bakeTexture(V, F, views);
  for (size_t fi = 0; fi < F.size(); ++fi) {
    float texel[3];
    atlasAt(baked, fi, 1 / 3.f, 1 / 3.f, 1 / 3.f, texel);
    std::printf("face %zu: painted from view %d, texel (%.3f, %.3f, %.3f), expected grey 0.4\n", fi, baked.faceView[fi], texel[0], texel[1], texel[2]);
    EXPECT_NE(baked.faceView[fi], 0);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(texel[k], 0.4f, 0.01f);
  }
}

TEST(TextureBake, FaceNoViewSeesTakesItsNeighboursColour) {
  // A grey plane of 32 faces; one face is wound the other way round (it faces away from every camera), so
  // no view paints it: it takes the colour of the faces around it, not a placeholder.
  std::vector<Eigen::Vector3f> V;
  std::vector<Eigen::Vector3i> F;
  planeGrid(4, V, F);
  std::swap(F[10][1], F[10][2]);
  std::vector<sr::TextureView> views = {flatView({0, 0, -3}, 60, 0.7f), flatView({0.5, 0, -3}, 60, 0.7f)};
  sr::BakedTexture baked = sr::bakeTexture(V, F, views);
  EXPECT_EQ(baked.unseenFaces, 1u);
  EXPECT_EQ(baked.faceView[10], -1);
  float texel[3];
  atlasAt(baked, 10, 1 / 3.f, 1 / 3.f, 1 / 3.f, texel);
  std::printf("unseen face: texel (%.3f, %.3f, %.3f), its neighbours 0.7\n", texel[0], texel[1], texel[2]);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(texel[k], 0.7f, 0.01f);
}

TEST(TextureBake, SeamsBetweenPhotosOfDifferentExposureAreLevelled) {
  // A grey plane photographed twice, the left half by a camera that exposed it at 0.45, the right half by one
  // that exposed it at 0.60 (each sees a little past the middle). Painted as they are, the texture jumps by 0.15
  // at the seam; levelled, the two sides meet, and the correction is spread, not piled on the seam.
  std::vector<Eigen::Vector3f> V;
  std::vector<Eigen::Vector3i> F;
  planeGrid(16, V, F);
  auto halfView = [](double x, float grey) {
    sr::TextureView v;
    v.fx = v.fy = 120;
    v.cx = 80, v.cy = 120;
    v.t = Eigen::Vector3d(-x, 0, 2.0);
    v.image = sr::ImageRGB(160, 240, grey);
    return v;
  };
  std::vector<sr::TextureView> views = {halfView(-0.55, 0.45f), halfView(0.55, 0.60f)};
  auto across = [&](const sr::BakedTexture& baked) {
    // Mean texel colour in the columns of faces just left and just right of where the patches meet.
    std::vector<float> column(16, 0.f);
    std::vector<int> count(16, 0);
    for (size_t fi = 0; fi < F.size(); ++fi) {
      const Eigen::Vector3f c = (V[F[fi][0]] + V[F[fi][1]] + V[F[fi][2]]) / 3.f;
      float texel[3];
      atlasAt(baked, fi, 1 / 3.f, 1 / 3.f, 1 / 3.f, texel);
      const int col = std::clamp(int((c.x() + 1) * 8), 0, 15);
      column[col] += texel[0], count[col]++;
    }
    for (int i = 0; i < 16; ++i) column[i] /= float(count[i]);
    float jump = 0;
    for (int i = 0; i + 1 < 16; ++i) jump = std::max(jump, std::abs(column[i + 1] - column[i]));
    return std::make_pair(jump, column);
  };
  sr::BakeOptions plain;
  plain.levelSeams = false;
  const sr::BakedTexture before = sr::bakeTexture(V, F, views, plain);
  const sr::BakedTexture after = sr::bakeTexture(V, F, views, sr::BakeOptions{});
  ASSERT_EQ(after.patches, 2);
  const auto [jumpBefore, columnsBefore] = across(before);
  const auto [jumpAfter, columns] = across(after);
  std::printf("largest step between neighbouring columns of faces: %.3f painted as photographed, %.3f levelled (bound 0.03); "
              "levelled columns from %.3f to %.3f; mean correction %.4f\n", jumpBefore, jumpAfter, columns.front(), columns.back(), double(after.meanCorrection));
  EXPECT_GT(jumpBefore, 0.12f);
  EXPECT_LT(jumpAfter, 0.03f);
  // Both sides moved towards each other (the correction is shared), and stay within the photos' range.
  EXPECT_GT(columns.front(), 0.45f + 0.01f);
  EXPECT_LT(columns.back(), 0.60f - 0.01f);
}

TEST(ViewLabels, FacesAcrossEachEdgeAreNeighbours) {
  std::vector<Eigen::Vector3f> V;
  std::vector<Eigen::Vector3i> F;
  planeGrid(6, V, F);
  const auto neighbours = sr::faceNeighbours(F);
  size_t borders = 0;
  for (size_t fi = 0; fi < F.size(); ++fi)
    for (int k = 0; k < 3; ++k) {
      const int g = neighbours[fi][k];
      if (g < 0) {
        ++borders;
        continue;
      }
      // Symmetric, and the two faces share exactly the edge's two vertices.
      const auto& back = neighbours[g];
      EXPECT_TRUE(back[0] == int(fi) || back[1] == int(fi) || back[2] == int(fi));
      std::set<int> shared;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
          if (F[fi][a] == F[g][b]) shared.insert(F[fi][a]);
      EXPECT_EQ(shared.size(), 2u);
    }
  EXPECT_EQ(borders, 4u * 6u);  // the grid's outline: 6 edges a side
}

TEST(ViewLabels, NeighboursKeepToOneViewWhenItCostsLittle) {
  // A 16×16 grid whose faces are seen by two views with nearly equal areas, the better one alternating in
  // a checkerboard of faces: alone, every face takes its own best (hundreds of one-face patches); with the
  // smoothness prior the surface keeps to one view, and a face seen only by a third view keeps that one.
  std::vector<Eigen::Vector3f> V;
  std::vector<Eigen::Vector3i> F;
  planeGrid(16, V, F);
  std::vector<std::vector<sr::Candidate>> candidates(F.size());
  for (size_t fi = 0; fi < F.size(); ++fi) {
    const bool odd = ((fi / 2) + (fi / 32)) % 2;
    candidates[fi] = odd ? std::vector<sr::Candidate>{{1, 10.f}, {0, 9.5f}} : std::vector<sr::Candidate>{{0, 10.f}, {1, 9.5f}};
  }
  candidates[100] = {{2, 10.f}};
  const auto neighbours = sr::faceNeighbours(F);
  sr::LabelOptions alone;
  alone.smoothness = 0;
  const auto greedy = sr::labelPatches(sr::labelFaces(candidates, neighbours, alone), neighbours);
  const auto labels = sr::labelFaces(candidates, neighbours, sr::LabelOptions{});
  const auto patches = sr::labelPatches(labels, neighbours);
  std::printf("%zu faces: %zu patches each on its best view, %zu with the smoothness prior\n", F.size(), greedy.size(), patches.size());
  EXPECT_GT(greedy.size(), 100u);
  EXPECT_LE(patches.size(), 3u);
  EXPECT_EQ(labels[100], 2);
  size_t faces = 0;
  for (const auto& p : patches) faces += p.size();
  EXPECT_EQ(faces, F.size());
}

TEST(TextureAtlas, RowsHoldEveryRectangleWithoutOverlap) {
  std::vector<Eigen::Vector2i> sizes;
  uint32_t state = 11;
  auto next = [&](int n) { return int((state = state * 1664525u + 1013904223u) >> 8) % n; };
  long area = 0;
  for (int i = 0; i < 300; ++i) {
    sizes.emplace_back(3 + next(60), 3 + next(40));
    area += long(sizes.back().x()) * sizes.back().y();
  }
  std::vector<Eigen::Vector2i> at;
  const int width = 256;
  const int height = sr::packRows(sizes, width, at);
  std::printf("300 rectangles (%ld texels) in rows %d wide: %d high, %.0f %% filled\n", area, width, height, 100.0 * area / (double(width) * height));
  ASSERT_GT(height, 0);
  std::vector<char> used(size_t(width) * height, 0);
  for (size_t i = 0; i < sizes.size(); ++i) {
    ASSERT_GE(at[i].x(), 0);
    ASSERT_LE(at[i].x() + sizes[i].x(), width);
    ASSERT_LE(at[i].y() + sizes[i].y(), height);
    for (int y = 0; y < sizes[i].y(); ++y)
      for (int x = 0; x < sizes[i].x(); ++x) {
        char& cell = used[size_t(at[i].y() + y) * width + at[i].x() + x];
        ASSERT_EQ(cell, 0);
        cell = 1;
      }
  }
  EXPECT_GE(double(area) / (double(width) * height), 0.6);
  EXPECT_EQ(sr::packRows({{300, 4}}, width, at), -1);
}

}  // namespace

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "mesh/ply_mesh.h"

// COLMAP's meshers write ASCII or binary PLY; other vertex properties are skipped and polygons fanned.
TEST(PlyMesh, ReadsAsciiAndBinaryMeshesAlike) {
  const auto dir = std::filesystem::temp_directory_path() / ("srmesh-ply-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string head = "element vertex 4\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\n"
                           "element face 1\nproperty list uchar int vertex_indices\nend_header\n";
  std::ofstream(dir / "ascii.ply") << "ply\nformat ascii 1.0\n" << head << "0 0 0 9\n1 0 0 9\n1 1 0.5 9\n0 1 0 9\n4 0 1 2 3\n";
  {
    std::ofstream out(dir / "binary.ply", std::ios::binary);
    out << "ply\nformat binary_little_endian 1.0\n" << head;
    const float xyz[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0.5f}, {0, 1, 0}};
    for (const auto& v : xyz) out.write(reinterpret_cast<const char*>(v), 12), out.put(char(9));
    const int corners[4] = {0, 1, 2, 3};
    out.put(char(4)).write(reinterpret_cast<const char*>(corners), sizeof corners);
  }
  for (const char* name : {"ascii.ply", "binary.ply"}) {
    const sr::TriangleMesh mesh = sr::readPlyMesh((dir / name).string());
    ASSERT_EQ(mesh.vertices.size(), 4u) << name;
    EXPECT_EQ(mesh.vertices[2], Eigen::Vector3f(1, 1, 0.5f)) << name;
    ASSERT_EQ(mesh.faces.size(), 2u) << name;
    EXPECT_EQ(mesh.faces[0], Eigen::Vector3i(0, 1, 2)) << name;
    EXPECT_EQ(mesh.faces[1], Eigen::Vector3i(0, 2, 3)) << name;
  }
  std::ofstream(dir / "bad.ply") << "ply\nformat ascii 1.0\n" << head << "0 0 0 9\n1 0 0 9\n1 1 0.5 9\n0 1 0 9\n3 0 1 7\n";
  EXPECT_THROW(sr::readPlyMesh((dir / "bad.ply").string()), std::runtime_error);  // a corner past the vertices
  std::filesystem::remove_all(dir);
}

#include "mesh/texture_mesh.h"
#include "tests/refusal.h"

// sr-texture's options name the flag that is out of range (its main only parses flags into them).
TEST(TextureMesh, OptionsCheckNamesTheOptionOutOfRange) {
  sr::TextureOptions o;
  o.meshPath = "mesh.ply", o.modelDir = "sparse", o.imagesDir = "images", o.outputDir = "out";
  EXPECT_EQ(refusalOf(o), "accepted");
  sr::TextureOptions bad = o;
  bad.bake.maxSide = 32;
  EXPECT_NE(refusalOf(bad).find("--max-texture"), std::string::npos);
  bad = o, bad.bake.texelsPerPixel = 0;
  EXPECT_NE(refusalOf(bad).find("--texels-per-pixel"), std::string::npos);
  bad = o, bad.bake.views.maxViews = 0;
  EXPECT_NE(refusalOf(bad).find("--max-views"), std::string::npos);
  bad = o, bad.bake.labels.smoothness = -1;
  EXPECT_NE(refusalOf(bad).find("--smoothness"), std::string::npos);
  bad = o, bad.outputDir.clear();
  EXPECT_NE(refusalOf(bad).find("--output"), std::string::npos);
  EXPECT_THROW(sr::textureMesh(bad), std::invalid_argument);
}
