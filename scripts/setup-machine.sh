#!/usr/bin/env bash
# Installs the Debian packages the product and its tests need (DESIGN §2, §6): ffmpeg and COLMAP for
# scans, a C++ toolchain with Eigen, stb and GoogleTest for the reconstruction engine (native/),
# Chromium for end-to-end tests. Runs as root, or through sudo. Safe to run again: installs only
# what is missing. Both README commands start with it.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
if [ "${1:-}" = "--tests" ]; then command -v chromium >/dev/null 2>&1 || need+=(chromium); fi
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
# The scan pipeline's structure-from-motion and fusion: Debian's COLMAP 3.8, CPU only.
command -v colmap >/dev/null 2>&1 || need+=(colmap)
# The native engine: CMake, g++ with OpenMP, Eigen, stb (images), GoogleTest.
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v g++ >/dev/null 2>&1 || need+=(g++)
for pkg in libeigen3-dev libstb-dev libgtest-dev; do have_pkg "$pkg" || need+=("$pkg"); done
if [ ${#need[@]} -gt 0 ]; then
  echo "[scanroom] installing Debian packages: ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
colmap_version=$( { colmap -h 2>/dev/null || true; } | grep -o 'COLMAP [0-9.]*' | head -n 1 || true)
echo "[scanroom] machine ready: ${colmap_version:-COLMAP missing}, $(ffmpeg -version 2>/dev/null | head -n 1 | cut -d' ' -f1-3 || true)"
