// sr-texture's run (issue 39 item 6): options with Check(), and textureMesh, which reads a mesh (.ply), an
// undistorted COLMAP model and its photos, bakes a texture atlas (texture_bake.h: one photo per patch of faces)
// and writes <output>/mesh.obj (positions, per-corner UVs) and <output>/atlas.png.
#pragma once
#include <cstddef>
#include <string>

#include "mesh/texture_bake.h"

namespace sr {

struct TextureOptions {
  std::string meshPath;    // the mesh to texture (.ply)
  std::string modelDir;    // undistorted sparse model (COLMAP text or binary)
  std::string imagesDir;   // its undistorted photos
  std::string outputDir;   // mesh.obj and atlas.png go here
  std::string skipPath;    // names of photos never used (held-out frames); empty: none
  BakeOptions bake;        // atlas size, texels per pixel, margin, views per face, smoothness, seam levelling

  // Throws std::invalid_argument naming the first option out of range.
  void Check() const;
};

struct TextureResult {
  size_t faces = 0, vertices = 0, views = 0;
  BakedTexture baked;
};

TextureResult textureMesh(const TextureOptions& options);

}  // namespace sr
