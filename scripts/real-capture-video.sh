#!/usr/bin/env bash
# The longest video SPEC allows, made from a real capture (issue 34 item 4): photos in capture order become a
# 180 s 1080×1920 H.264 video at 30 fps with 300 distinct frames — the photos and motion-compensated frames
# between them (ffmpeg's minterpolate) — each held for 0.6 s, the window the frame stage takes one frame from.
#   scripts/real-capture-video.sh <folder of photos in capture order> <output folder> "<source and licence>"
# Writes <output folder>/video.mp4 and SOURCE.txt; for the real-capture bench (bench/real-captures.ts).
set -euo pipefail
photos=${1:?folder of photos}; out=${2:?output folder}; about=${3:?source and licence}
count=$(find "$photos" -maxdepth 1 -iname '*.jpg' | wc -l)
[ "$count" -ge 2 ] || { echo "need at least 2 JPEG photos in $photos" >&2; exit 1; }
mkdir -p "$out"
ffmpeg -y -loglevel error -framerate "$count/180" -pattern_type glob -i "$photos/*.jpg" \
  -vf "minterpolate=fps=5/3:mi_mode=mci:mc_mode=aobmc:me_mode=bidir:vsbmc=1,fps=30,format=yuv420p" \
  -c:v libx264 -preset medium -crf 18 -movflags +faststart "$out/video.mp4"
printf '%s\n%s photos made into a 180 s video by scripts/real-capture-video.sh\n' "$about" "$count" > "$out/SOURCE.txt"
