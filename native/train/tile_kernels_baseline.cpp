// The tile kernel pair for the compiler's baseline target (every x86-64 CPU; any other architecture).
#include "train/tile_kernel_body.h"
#include "train/tile_kernels.h"

namespace sr::train::detail {

void forwardTileBaseline(const Projected& p, const Camera& cam, const float bg[3], int tile, Render& out) { forwardTile(p, cam, bg, tile, out); }

void backwardTileBaseline(const Projected& p, const Camera& cam, const float bg[3], const Render& fwd, const std::vector<float>& dL, int tile, float* acc) {
  backwardTile(p, cam, bg, fwd, dL, tile, acc);
}

#if !defined(SR_HAVE_AVX2_KERNEL)
bool cpuHasAvx2() { return false; }
#endif

}  // namespace sr::train::detail
