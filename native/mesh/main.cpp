// sr-texture --mesh <mesh.ply> --model <undistorted sparse/> --images <undistorted images/> --output <dir>
//            [--skip <file of image names not to use>] [--max-texture 4096] [--texels-per-pixel 1] [--margin 2]
//            [--max-views 8] [--outlier 0.12] [--min-share 0.15] [--smoothness 0.3] [--level-seams 1]
// Bakes a texture atlas for the mesh from the photos (one photo per patch of faces, texture_bake.h) and
// writes <dir>/mesh.obj (positions, per-corner UVs) and <dir>/atlas.png. Progress lines on stdout.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <set>

#include "lib/colmap_io.h"
#include "lib/progress.h"
#include "mesh/ply_mesh.h"
#include "mesh/texture_bake.h"

int main(int argc, char** argv) {
  try {
    sr::Args args(argc, argv);
    const std::string output = args.required("output");
    std::filesystem::create_directories(output);
    sr::TriangleMesh mesh = sr::readPlyMesh(args.required("mesh"));
    if (mesh.faces.empty()) throw std::runtime_error("the mesh has no faces");
    sr::Model model = sr::readModel(args.required("model"));
    const std::string imageDir = args.required("images");
    std::set<std::string> skip;
    if (args.has("skip")) {
      std::ifstream list(args.str("skip"));
      if (!list) throw std::runtime_error("cannot read " + args.str("skip"));
      for (std::string name; std::getline(list, name);)
        if (!name.empty()) skip.insert(name);
    }
    std::vector<sr::TextureView> views;
    for (size_t i = 0; i < model.images.size(); ++i) {
      const sr::Image& image = model.images[i];
      if (skip.count(image.name)) continue;
      const sr::Camera& cam = model.cameraOf(image);
      sr::TextureView v;
      v.fx = cam.fx();
      v.fy = cam.fy();
      v.cx = cam.cx();
      v.cy = cam.cy();
      v.R = image.R();
      v.t = image.t;
      v.image = sr::loadImage(imageDir + "/" + image.name);
      views.push_back(std::move(v));
      sr::reportProgress(0.3 * (i + 1) / model.images.size(), "loading views");
    }
    if (views.empty()) throw std::runtime_error("the model has no images");
    sr::BakeOptions options;
    options.maxSide = args.integer("max-texture", options.maxSide);
    options.texelsPerPixel = float(args.num("texels-per-pixel", options.texelsPerPixel));
    options.margin = args.integer("margin", options.margin);
    options.views.maxViews = args.integer("max-views", options.views.maxViews);
    options.views.outlierColour = float(args.num("outlier", options.views.outlierColour));
    options.views.minScoreShare = float(args.num("min-share", options.views.minScoreShare));
    options.labels.smoothness = float(args.num("smoothness", options.labels.smoothness));
    options.levelSeams = args.integer("level-seams", 1) != 0;
    if (options.maxSide < 64 || !(options.texelsPerPixel > 0) || options.margin < 0 || options.views.maxViews < 1 || options.labels.smoothness < 0)
      throw std::runtime_error("--max-texture, --texels-per-pixel, --margin, --max-views or --smoothness is out of range");
    sr::BakedTexture baked = sr::bakeTexture(mesh.vertices, mesh.faces, views, options);
    sr::reportProgress(0.9, "writing");
    sr::saveImage(baked.atlas, output + "/atlas.png");
    sr::writeTexturedObj(output + "/mesh.obj", mesh, baked.uv);
    std::printf("faces %zu vertices %zu views %zu patches %d unseen %zu atlas %dx%d texels/pixel %.3f seam correction %.4f\n",
                mesh.faces.size(), mesh.vertices.size(), views.size(), baked.patches, baked.unseenFaces, baked.atlas.width,
                baked.atlas.height, double(baked.texelsPerPixel), double(baked.meanCorrection));
    sr::reportProgress(1.0, "done");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sr-texture: %s\n", e.what());
    return 1;
  }
}
