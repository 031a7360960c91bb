#!/usr/bin/env bash
# Profiles one construction kernel launch with Nsight Compute on the GPU machine:
#   scripts/gpu_profile.sh BUILD_DIR INSTANCE CONFIG OUTPUT_FILE
# CONFIG is a formica_bench configuration ("backend=cuda,selection=hybrid"). Clocks are left as
# the card has them (--clock-control none).
set -uo pipefail
build=$1 instance=$2 config=$3 output=$4
ncu --clock-control none --kernel-name regex:construct_ --launch-skip 2 --launch-count 1 \
  --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
  --section LaunchStats --section Occupancy \
  "$build/formica_bench" --instances "$instance" --config "p:$config" --iterations 1 --warmup 2 >"$output" 2>&1
grep -E "Duration|Memory Throughput|L2 Hit|Achieved Occupancy|Registers Per|Stall|Warp Cycles Per Issued|L1/TEX Hit|Max Bandwidth|Mem Busy" "$output" | head -40
