#include "mesh/texture_mesh.h"

#include <filesystem>
#include <set>
#include <stdexcept>

#include "lib/colmap_io.h"
#include "lib/name_list.h"
#include "lib/progress.h"
#include "mesh/ply_mesh.h"

namespace sr {

void TextureOptions::Check() const {
  if (meshPath.empty() || modelDir.empty() || imagesDir.empty() || outputDir.empty())
    throw std::invalid_argument("--mesh, --model, --images and --output are required");
  if (bake.maxSide < 64) throw std::invalid_argument("--max-texture must be at least 64");
  if (!(bake.texelsPerPixel > 0)) throw std::invalid_argument("--texels-per-pixel must be positive");
  if (bake.margin < 0) throw std::invalid_argument("--margin must not be negative");
  if (bake.views.maxViews < 1) throw std::invalid_argument("--max-views must be at least 1");
  if (!(bake.labels.smoothness >= 0)) throw std::invalid_argument("--smoothness must not be negative");
}

TextureResult textureMesh(const TextureOptions& o) {
  o.Check();
  std::filesystem::create_directories(o.outputDir);
  TriangleMesh mesh = readPlyMesh(o.meshPath);
  if (mesh.faces.empty()) throw std::runtime_error("the mesh has no faces");
  const Model model = readModel(o.modelDir);
  const std::set<std::string> skip = readNameList(o.skipPath);
  std::vector<TextureView> views;
  for (size_t i = 0; i < model.images.size(); ++i) {
    const Image& image = model.images[i];
    if (skip.count(image.name)) continue;
    const Camera& cam = model.cameraOf(image);
    TextureView v;
    v.fx = cam.fx();
    v.fy = cam.fy();
    v.cx = cam.cx();
    v.cy = cam.cy();
    v.R = image.R();
    v.t = image.t;
    v.image = loadImage(o.imagesDir + "/" + image.name);
    views.push_back(std::move(v));
    reportProgress(0.3 * (i + 1) / model.images.size(), "loading views");
  }
  if (views.empty()) throw std::runtime_error("the model has no images");
  TextureResult result;
  result.faces = mesh.faces.size(), result.vertices = mesh.vertices.size(), result.views = views.size();
  result.baked = bakeTexture(mesh.vertices, mesh.faces, views, o.bake);
  reportProgress(0.9, "writing");
  saveImage(result.baked.atlas, o.outputDir + "/atlas.png");
  writeTexturedObj(o.outputDir + "/mesh.obj", mesh, result.baked.uv);
  return result;
}

}  // namespace sr
