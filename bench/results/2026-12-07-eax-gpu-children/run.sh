#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# GA-EAX's generations on the host threads and with their first-stage crossovers on the GPU, the
# same generations either way (eax_bench --gpu-children): the seconds each takes, from
# nearest-neighbour start tours climbed by 2-opt and Or-opt, seed 1, on every hardware thread.
#   bench/results/2026-12-07-eax-gpu-children/run.sh BUILD OUT_DIR     (FORMICA_TSPLIB_DIR set)
set -euo pipefail
build=${1:?build folder}; out=${2:?output folder}
mkdir -p "$out"
for spec in "usa13509 300" "pla85900 40"; do
  read -r instance generations <<< "$spec"
  for variant in "host|" "gpu1|--gpu-children --gpu-makers 1" "gpu8|--gpu-children --gpu-makers 8"; do
    IFS='|' read -r name flags <<< "$variant"
    # shellcheck disable=SC2086  # the flags are words
    "$build/eax_bench" --instance "$FORMICA_TSPLIB_DIR/tsp/$instance.tsp" --start nearest-neighbour \
      --generations "$generations" --seconds 95 $flags > "$out/${instance}_$name.log"
    tail -n 1 "$out/${instance}_$name.log"
  done
done
