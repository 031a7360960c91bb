#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The quality-per-time benchmarks of the default solver (--algorithm auto), run with
# quality_time (medians over seeds, the clock started before the instance is read).
#   bench/quality_time.sh BUILD_DIR OUT_DIR table   docs/default-solver.md's table and plot: 12 instances,
#                                                   5 seeds where a reference is given, 3 otherwise
#                                                   (reference / others: either half alone)
#   bench/quality_time.sh BUILD_DIR OUT_DIR reference-cold
#                                                   the reference half with every run a fresh
#                                                   formica process (CUDA start-up included)
#   bench/quality_time.sh BUILD_DIR OUT_DIR sweep   every TSPLIB instance up to 3,000 cities, 1 seed,
#                                                   10 s, stopping at 0.1 % (time to 0.1 %)
#   bench/quality_time.sh BUILD_DIR OUT_DIR large   the generated 200,000-city instance: 2 seeds
#                                                   of 60 s, then one long run for a best length
# Extra arguments after the mode go to every quality_time call (e.g. --set backend=cpu).
set -euo pipefail
build=$1 out=$2 mode=$3
shift 3
mkdir -p "$out"
tsplib=${FORMICA_TSPLIB_DIR:-$(dirname "$0")/../../shared/tsplib}
# The reference: the strongest public ant colony solver on the H200 machine's 16 cores.
refs=(--reference pr2392=0.72:0.62 --reference fnl4461=1.54:0.69 --reference usa13509=5.6:0.85
      --reference pla85900=16.4:3.35)
reference() {  # reference [--cli FORMICA] OUTPUT_PREFIX [quality_time options]
    local cli=()
    if [[ $1 == --cli ]]; then cli=(--cli "$2"); shift 2; fi
    local prefix=$1
    shift
    "$build/quality_time" --seeds 5 --instances pr2392@1.5,fnl4461@3.1,usa13509@11.2,pla85900@32.8 "${refs[@]}" \
      "${cli[@]}" --csv "$out/$prefix.csv" --curves "$out/${prefix}_curves.csv" --svg "$out/$prefix.svg" "$@"
}
others() {
    "$build/quality_time" --seeds 3 \
      --instances d198@3,pcb442@3,pr1002@5,pcb3038@5,pla7397@8,d18512@15,pla33810@20 \
      --csv "$out/others.csv" --curves "$out/others_curves.csv" --svg "$out/others.svg" "$@"
}
case $mode in
  table) reference reference "$@"; others "$@" ;;
  reference) reference reference "$@" ;;
  reference-cold) reference --cli "$build/formica" reference_cold "$@" ;;
  others) others "$@" ;;
  sweep)
    list=$(awk -F, 'NR > 1 && $2 <= 3000 { printf "%s%s@10", sep, $1; sep = "," }' "$tsplib/solutions.csv")
    "$build/quality_time" --seeds 1 --stop-gap 0.1 --instances "$list" --csv "$out/sweep.csv" "$@"
    ;;
  large)
    # Gaps against the best length known (an earlier 180-s run), until the long run below beats it.
    best=uniform:200000:1=${BEST_KNOWN_200K:-321349517}
    "$build/quality_time" --seeds 2 --instances uniform:200000:1@60 --curves "$out/large_curves.csv" \
      --csv "$out/large.csv" --best-known "$best" --svg "$out/large.svg" "$@"
    "$build/quality_time" --seeds 1 --instances uniform:200000:1@${LONG_SECONDS:-180} --csv "$out/large_long.csv" \
      --curves "$out/large_long_curves.csv" "$@"
    ;;
  *) echo "usage: $0 BUILD_DIR OUT_DIR table|reference|reference-cold|others|sweep|large [quality_time options]" >&2
     exit 2 ;;
esac
