// sr-texture: baking a known pattern. A checkerboard plane seen by two synthetic pinhole cameras; the
// baked texels inside each triangle, read back through the UVs, must show the checkerboard.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

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

TEST(TextureBake, CheckerboardPlaneFromTwoCameras) {
  // An 8×8 grid of quads over [-1, 1]², wound so the normals point to -z (towards the cameras).
  std::vector<Eigen::Vector3f> V;
  std::vector<Eigen::Vector3i> F;
  const int n = 8;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) V.emplace_back(-1.f + 2.f * i / n, -1.f + 2.f * j / n, 0.f);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      int a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      F.emplace_back(a, c, b);
      F.emplace_back(b, c, d);
    }
  std::vector<sr::TextureView> views = {planeView({-0.4, 0.0, -3.0}, 320, 240, 300.0),
                                        planeView({0.6, 0.2, -2.5}, 320, 240, 300.0)};
  sr::BakedTexture baked = sr::bakeTexture(V, F, views, {1024, 32});
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
        Eigen::Vector2f uv = w0 * baked.uv[fi * 3] + w1 * baked.uv[fi * 3 + 1] + w2 * baked.uv[fi * 3 + 2];
        float texel[3];
        baked.atlas.sample(uv.x() * baked.atlas.width, uv.y() * baked.atlas.height, texel);
        errors.push_back(std::abs(texel[0] - checker(X.x(), X.y())));
      }
  std::sort(errors.begin(), errors.end());
  ASSERT_GT(errors.size(), 1000u);
  float median = errors[errors.size() / 2], p99 = errors[errors.size() * 99 / 100], worst = errors.back();
  std::printf("checkerboard bake: %zu samples away from the squares' edges, |error| median %.4f, 99th %.4f, max %.4f"
              " (contrast 0.8, cell %d texels)\n", errors.size(), median, p99, worst, baked.cell);
  // Bounds (of a 0.8 contrast): median ≤ 0.02, 99th percentile ≤ 0.1, every sample ≤ 0.4 (on the right square).
  EXPECT_LE(median, 0.02f);
  EXPECT_LE(p99, 0.1f);
  EXPECT_LE(worst, 0.4f);
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

TEST(TextureBake, ViewThatDisagreesIsOutvoted) {
  // Three cameras see a grey square; in the one that sees it largest, something the mesh does not hold
  // (a red occluder) covers it. The baked texture must show the grey the other two agree on.
  std::vector<Eigen::Vector3f> V;
  std::vector<Eigen::Vector3i> F;
  unitSquare(V, F);
  auto grey = [](const Eigen::Vector3d& centre, double f) {
    sr::TextureView v;
    v.fx = v.fy = f;
    v.cx = v.cy = 100;
    v.t = -centre;
    v.image = sr::ImageRGB(200, 200, 0.4f);
    return v;
  };
  std::vector<sr::TextureView> views = {grey({0, 0, -2}, 300), grey({0.3, 0, -3}, 200), grey({-0.3, 0.2, -3}, 200)};
  for (float& value : views[0].image.data) value = 0.f;
  for (int y = 0; y < 200; ++y)
    for (int x = 0; x < 200; ++x) views[0].image.px(x, y)[0] = 0.9f;
  sr::BakedTexture baked = sr::bakeTexture(V, F, views, {1024, 16});
  EXPECT_EQ(baked.faceView[0], 0);  // the occluded view is still the one that sees the face largest
  for (size_t fi = 0; fi < F.size(); ++fi) {
    Eigen::Vector2f uv = (baked.uv[fi * 3] + baked.uv[fi * 3 + 1] + baked.uv[fi * 3 + 2]) / 3.f;
    float texel[3];
    baked.atlas.sample(uv.x() * baked.atlas.width, uv.y() * baked.atlas.height, texel);
    std::printf("face %zu: %d views blended, texel (%.3f, %.3f, %.3f), expected grey 0.4\n", fi, baked.faceViewCount[fi], texel[0], texel[1], texel[2]);
    EXPECT_EQ(baked.faceViewCount[fi], 2);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(texel[k], 0.4f, 0.01f);
  }
}

TEST(TextureBake, NeighbouringFacesGetNeighbouringCells) {
  // A 64×64 grid of quads (8,192 faces): faces that share an edge on the surface should sit close together in
  // the atlas, so the texture's coarser mip levels average nearby surface, not unrelated faces.
  std::vector<Eigen::Vector3f> V;
  std::vector<Eigen::Vector3i> F;
  const int n = 64;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) V.emplace_back(float(i) / n, float(j) / n, 0.f);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      int a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      F.emplace_back(a, c, b);
      F.emplace_back(b, c, d);
    }
  // Shuffle the faces (a mesher's order is arbitrary) with a fixed permutation.
  std::vector<Eigen::Vector3i> shuffled(F.size());
  for (size_t i = 0; i < F.size(); ++i) shuffled[(i * 2654435761u) % F.size()] = F[i];
  const int columns = sr::atlasColumns(shuffled.size());
  std::vector<Eigen::Vector2i> cells = sr::atlasPlacement(V, shuffled, columns);
  // Every face its own cell.
  std::vector<char> used(size_t(columns) * columns * 2, 0);
  for (const auto& c : cells) {
    size_t key = size_t(c.y()) * columns + c.x();
    ASSERT_LT(key, used.size());
    EXPECT_FALSE(used[key]);
    used[key] = 1;
  }
  // Atlas distance (cells, Chebyshev) between faces sharing an edge.
  std::vector<int> distances;
  for (size_t a = 0; a < shuffled.size(); ++a)
    for (size_t b = a + 1; b < shuffled.size(); ++b) {
      int shared = 0;
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) shared += shuffled[a][i] == shuffled[b][k];
      if (shared == 2) distances.push_back((cells[a] - cells[b]).cwiseAbs().maxCoeff());
    }
  std::sort(distances.begin(), distances.end());
  const int median = distances[distances.size() / 2], p90 = distances[distances.size() * 9 / 10];
  std::printf("atlas distance between %zu pairs of edge-sharing faces: median %d, 90th percentile %d cells (atlas %d columns)\n",
              distances.size(), median, p90, columns);
  // Bounds: half the neighbours within 2 cells, 90 % within one 16-cell placement block.
  EXPECT_LE(median, 2);
  EXPECT_LE(p90, 16);
}

TEST(TextureBake, AtlasCellFitsTheFaces) {
  EXPECT_EQ(sr::atlasCellSize(100, 4096, 16), 16);
  int cell = sr::atlasCellSize(200000, 4096, 16);
  EXPECT_LE(int(std::ceil(std::sqrt(200000.0))) * cell, 4096);
  EXPECT_GE(cell, 9);
}

}  // namespace
