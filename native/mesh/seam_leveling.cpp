#include "seam_leveling.h"

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <map>
#include <stdexcept>

namespace sr {
namespace {

// A vertex's colour in a photo: the mean of the 3×3 pixels around its projection (robust to one pixel's noise).
Eigen::Vector3f colourAt(const TextureView& v, const Eigen::Vector3f& X) {
  const Projected p = project(v, X);
  Eigen::Vector3f sum = Eigen::Vector3f::Zero();
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      float rgb[3];
      v.image.sample(float(p.px.x() + dx), float(p.px.y() + dy), rgb);
      sum += Eigen::Vector3f(rgb[0], rgb[1], rgb[2]);
    }
  return sum / 9.f;
}

}  // namespace

PatchCorrections levelSeams(const std::vector<Eigen::Vector3f>& V, const std::vector<Eigen::Vector3i>& F,
                            const std::vector<std::vector<int>>& patches, const std::vector<int>& patchView,
                            const std::vector<TextureView>& views, const LevelingOptions& o) {
  // One unknown per (patch, vertex of the patch).
  std::vector<std::map<int, int>> unknown(patches.size());
  std::vector<std::vector<int>> patchesAt(V.size());  // the patches each vertex belongs to
  int count = 0;
  for (size_t p = 0; p < patches.size(); ++p)
    for (int f : patches[p])
      for (int k = 0; k < 3; ++k)
        if (unknown[p].emplace(F[f][k], count).second) ++count, patchesAt[F[f][k]].push_back(int(p));

  // Rows of the least-squares system: seam agreements, smoothness along each patch's edges, a small pull to 0.
  std::vector<Eigen::Triplet<double>> rows;
  std::vector<Eigen::Vector3d> rhs;
  int row = 0;
  size_t seams = 0;
  for (size_t v = 0; v < V.size(); ++v) {
    const auto& at = patchesAt[v];
    if (at.size() < 2) continue;
    std::vector<Eigen::Vector3f> colour;
    for (int p : at) colour.push_back(colourAt(views[patchView[p]], V[v]));
    for (size_t a = 0; a < at.size(); ++a)
      for (size_t b = a + 1; b < at.size(); ++b) {
        if (patchView[at[a]] == patchView[at[b]]) continue;  // same photo: no jump to level
        const Eigen::Vector3f difference = colour[b] - colour[a];
        if (difference.norm() > o.maxDifference) continue;
        // g_a − g_b = f_b − f_a
        rows.emplace_back(row, unknown[at[a]].at(int(v)), 1.0);
        rows.emplace_back(row, unknown[at[b]].at(int(v)), -1.0);
        rhs.push_back(difference.cast<double>());
        ++row, ++seams;
      }
  }
  const double smooth = std::sqrt(double(o.smoothness));
  for (size_t p = 0; p < patches.size(); ++p)
    for (int f : patches[p])
      for (int k = 0; k < 3; ++k) {
        // An edge inside the patch is met from both of its faces: counted twice, like every other inner edge.
        const int a = F[f][k], b = F[f][(k + 1) % 3];
        rows.emplace_back(row, unknown[p].at(a), smooth);
        rows.emplace_back(row, unknown[p].at(b), -smooth);
        rhs.emplace_back(Eigen::Vector3d::Zero());
        ++row;
      }
  for (int i = 0; i < count; ++i) {
    rows.emplace_back(row, i, 1e-2);
    rhs.emplace_back(Eigen::Vector3d::Zero());
    ++row;
  }

  PatchCorrections out(patches.size());
  if (seams == 0) {
    for (size_t p = 0; p < patches.size(); ++p)
      for (const auto& [vertex, index] : unknown[p]) out[p][vertex] = Eigen::Vector3f::Zero();
    return out;
  }
  Eigen::SparseMatrix<double> A(row, count);
  A.setFromTriplets(rows.begin(), rows.end());
  const Eigen::SparseMatrix<double> normal = Eigen::SparseMatrix<double>(A.transpose()) * A;
  // The normal equations of a mesh-shaped system: sparse, symmetric positive definite (the pull to 0), and
  // ill-conditioned for an iterative solver; a sparse Cholesky factorisation solves them in one go.
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(normal);
  if (solver.info() != Eigen::Success) throw std::runtime_error("the seam levelling system could not be factorised");
  Eigen::MatrixXd b(row, 3);
  for (int r = 0; r < row; ++r) b.row(r) = rhs[r].transpose();
  const Eigen::MatrixXd g = solver.solve(A.transpose() * b);
  for (size_t p = 0; p < patches.size(); ++p)
    for (const auto& [vertex, index] : unknown[p]) out[p][vertex] = g.row(index).transpose().cast<float>();
  return out;
}

}  // namespace sr
