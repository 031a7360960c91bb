#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# GA-EAX's generations on the host threads and with their first-stage crossovers on the GPU, from
# nearest-neighbour start tours climbed by 2-opt and Or-opt, seed 1, every hardware thread: the
# kernel before (OLD_BUILD's eax_bench) and after (NEW_BUILD's) the changes of this folder.
#   bench/results/2026-12-07-eax-gpu-children-kernel/run.sh OLD_BUILD NEW_BUILD OUT_DIR   (FORMICA_TSPLIB_DIR set)
set -euo pipefail
old=${1:?build folder before}; new=${2:?build folder after}; out=${3:?output folder}
mkdir -p "$out"
for spec in "pla85900 20 host|$new|" "pla85900 20 old8|$old|--gpu-children --gpu-makers 8" \
            "pla85900 20 new8|$new|--gpu-children --gpu-makers 8" "pla85900 20 new32|$new|--gpu-children --gpu-makers 32" \
            "usa13509 100 host|$new|" "usa13509 100 old8|$old|--gpu-children --gpu-makers 8" \
            "usa13509 100 new32|$new|--gpu-children --gpu-makers 32"; do
  IFS='|' read -r head build flags <<< "$spec"; read -r instance generations name <<< "$head"
  # shellcheck disable=SC2086  # the flags are words
  "$build/eax_bench" --instance "$FORMICA_TSPLIB_DIR/tsp/$instance.tsp" --start nearest-neighbour \
    --generations "$generations" --seconds 80 $flags > "$out/${instance}_$name.log"
  tail -n 2 "$out/${instance}_$name.log"
done
