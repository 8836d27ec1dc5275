#!/usr/bin/env bash
# Installs the Debian packages the test suite needs (DESIGN §2): Chromium for end-to-end tests,
# ffmpeg for media, COLMAP for scans. Runs as root, or through sudo. Safe to run again.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
# The scan pipeline's structure-from-motion (issue 5): Debian's COLMAP 3.8, CPU only.
command -v colmap >/dev/null 2>&1 || need+=(colmap)
if [ ${#need[@]} -gt 0 ]; then
  echo "[scanroom] installing Debian packages: ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
echo "[scanroom] test machine ready: $(chromium --version 2>/dev/null | head -1)"
