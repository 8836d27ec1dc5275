// The tile kernel pair for AVX2 + FMA (x86-64, GCC or Clang), taken when the CPU has both (raster.cpp). Only
// these two functions carry the target: nothing else in this file runs AVX2 code on a CPU without it.
#include "train/tile_kernels.h"

#if defined(SR_HAVE_AVX2_KERNEL)
#include "train/tile_kernel_body.h"

namespace sr::train::detail {

__attribute__((target("avx2,fma"))) void forwardTileAvx2(const Projected& p, const Camera& cam, const float bg[3], int tile, Render& out) {
  forwardTile(p, cam, bg, tile, out);
}

__attribute__((target("avx2,fma"))) void backwardTileAvx2(const Projected& p, const Camera& cam, const float bg[3], const Render& fwd, const std::vector<float>& dL,
                                                          int tile, float* acc) {
  backwardTile(p, cam, bg, fwd, dL, tile, acc);
}

bool cpuHasAvx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

}  // namespace sr::train::detail
#endif
