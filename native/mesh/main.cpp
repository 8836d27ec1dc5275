// sr-texture --mesh <mesh.ply> --model <undistorted sparse/> --images <undistorted images/> --output <dir>
//            [--skip <file of image names not to use>] [--max-texture 4096] [--texels-per-pixel 1] [--margin 2]
//            [--max-views 8] [--outlier 0.12] [--min-share 0.15] [--smoothness 0.3] [--level-seams 1]
// Bakes a texture atlas for the mesh from the photos (one photo per patch of faces, texture_bake.h) and
// writes <dir>/mesh.obj (positions, per-corner UVs) and <dir>/atlas.png. Progress lines on stdout. The run is
// textureMesh (mesh/texture_mesh.h); this main parses the flags into its options.
#include <cstdio>
#include <exception>

#include "lib/progress.h"
#include "mesh/texture_mesh.h"

int main(int argc, char** argv) {
  try {
    const sr::Args args(argc, argv);
    sr::TextureOptions options;
    options.meshPath = args.required("mesh");
    options.modelDir = args.required("model");
    options.imagesDir = args.required("images");
    options.outputDir = args.required("output");
    options.skipPath = args.str("skip");
    sr::BakeOptions& bake = options.bake;
    bake.maxSide = args.integer("max-texture", bake.maxSide);
    bake.texelsPerPixel = float(args.num("texels-per-pixel", bake.texelsPerPixel));
    bake.margin = args.integer("margin", bake.margin);
    bake.views.maxViews = args.integer("max-views", bake.views.maxViews);
    bake.views.outlierColour = float(args.num("outlier", bake.views.outlierColour));
    bake.views.minScoreShare = float(args.num("min-share", bake.views.minScoreShare));
    bake.labels.smoothness = float(args.num("smoothness", bake.labels.smoothness));
    bake.levelSeams = args.integer("level-seams", 1) != 0;
    const sr::TextureResult result = sr::textureMesh(options);
    const sr::BakedTexture& baked = result.baked;
    std::printf("faces %zu vertices %zu views %zu patches %d unseen %zu atlas %dx%d texels/pixel %.3f seam correction %.4f\n", result.faces,
                result.vertices, result.views, baked.patches, baked.unseenFaces, baked.atlas.width, baked.atlas.height,
                double(baked.texelsPerPixel), double(baked.meanCorrection));
    sr::reportProgress(1.0, "done");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sr-texture: %s\n", e.what());
    return 1;
  }
}
