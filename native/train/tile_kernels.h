// The per-tile kernels, one file per pair (forward, backward), chosen at run time (raster.cpp): the baseline
// target's (tile_kernels_baseline.cpp) and, on x86-64 with GCC or Clang, AVX2 + FMA's (tile_kernels_avx2.cpp).
// Both compile the same bodies (tile_kernel_body.h); the raster tests check each pair against the reference.
#pragma once
#include <vector>

#include "train/raster.h"

namespace sr::train::detail {

// Composites one tile of out's pixels from p's list for that tile, front to back.
void forwardTileBaseline(const Projected& p, const Camera& cam, const float bg[3], int tile, Render& out);
// Adds one tile's screen-space gradients into acc (9 per gaussian: du dv da db dc dalpha0 dr dg db).
void backwardTileBaseline(const Projected& p, const Camera& cam, const float bg[3], const Render& fwd, const std::vector<float>& dL, int tile, float* acc);

#if defined(__x86_64__) && defined(__GNUC__)
#define SR_HAVE_AVX2_KERNEL 1
void forwardTileAvx2(const Projected& p, const Camera& cam, const float bg[3], int tile, Render& out);
void backwardTileAvx2(const Projected& p, const Camera& cam, const float bg[3], const Render& fwd, const std::vector<float>& dL, int tile, float* acc);
#endif

// Whether this CPU runs the AVX2 + FMA pair.
bool cpuHasAvx2();

}  // namespace sr::train::detail
