#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The same tours for the same seeds: solves a handful of small instances with the CPU backend, a
# fixed seed and a count of iterations (never a time limit, so every run is repeatable), once with
# the formica of each of two builds, and compares the tours and their lengths. For a change that
# must not change behaviour (a refactor): the reference build is one of the commit before it.
# Auto's choices under a time limit (GA-EAX among them) depend on the budget, not on timing: for
# those the script compares the configuration each build resolves and prints (the run itself stops
# at its first iteration, told to reach a length any tour reaches).
#
#   scripts/same_tours.sh REFERENCE_BUILD CANDIDATE_BUILD [WORK_DIR]
#
# Each build folder holds the command line `formica` (a CPU or CUDA build; the runs use the CPU
# backend either way). The TSPLIB instance comes from $FORMICA_TSPLIB_DIR (default
# ../shared/tsplib beside the repository) and is skipped with a message when absent. Prints one
# line per run and exits 1 if any tour or length differs, 2 on a usage error.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 REFERENCE_BUILD CANDIDATE_BUILD [WORK_DIR]" >&2
  exit 2
fi
reference=$1/formica
candidate=$2/formica
for binary in "$reference" "$candidate"; do
  [ -x "$binary" ] || { echo "same_tours: no formica at $binary" >&2; exit 2; }
done
work=${3:-$(mktemp -d)}
mkdir -p "$work"
root=$(cd "$(dirname "$0")/.." && pwd)
tsplib=${FORMICA_TSPLIB_DIR:-$root/../shared/tsplib}

"$reference" generate --cities 200 --seed 3 --output "$work/uniform200.tsp" >/dev/null
"$reference" generate --cities 1000 --kind clustered --seed 5 --output "$work/clustered1000.tsp" >/dev/null
instances=("$work/uniform200.tsp" "$work/clustered1000.tsp")
if [ -f "$tsplib/tsp/pr1002.tsp" ]; then
  instances+=("$tsplib/tsp/pr1002.tsp")
else
  echo "same_tours: $tsplib/tsp/pr1002.tsp absent: the TSPLIB run is skipped"
fi

# Name and options of each configuration: auto (focused MMAS on the CPU when iterations bound the
# run), merged colonies (partition merge), ACS, GA-EAX (population search), 2-opt restarts.
configs=(
  "auto|--iterations 30"
  "merged-colonies|--iterations 30 --colonies 4 --merge-tours true"
  "acs|--algorithm acs --iterations 20"
  "eax|--algorithm eax --iterations 40 --population 30 --threads 2"
  "two-opt|--algorithm two-opt --iterations 1 --restarts 8"
)

failures=0
for instance in "${instances[@]}"; do
  for entry in "${configs[@]}"; do
    name=${entry%%|*}
    read -r -a options <<<"${entry#*|}"
    tag=$(basename "$instance" .tsp)-$name
    for side in reference candidate; do
      binary=$reference
      [ "$side" = candidate ] && binary=$candidate
      "$binary" solve "$instance" --backend cpu --seed 7 --quiet "${options[@]}" \
        --tour-out "$work/$tag.$side.tour" >"$work/$tag.$side.out" 2>&1 ||
        { echo "same_tours: $tag: the $side run failed (see $work/$tag.$side.out)" >&2; failures=$((failures + 1)); }
    done
    length() { grep -m1 -oE 'Length [0-9]+' "$1" 2>/dev/null | grep -oE '[0-9]+$' || true; }
    ref_length=$(length "$work/$tag.reference.tour")
    new_length=$(length "$work/$tag.candidate.tour")
    if [ -s "$work/$tag.reference.tour" ] && cmp -s <(grep -v '^NAME' "$work/$tag.reference.tour") \
         <(grep -v '^NAME' "$work/$tag.candidate.tour") && [ "$ref_length" = "$new_length" ]; then
      echo "same   $tag: length $new_length"
    else
      echo "DIFFER $tag: length $ref_length (reference) / $new_length (candidate)"
      failures=$((failures + 1))
    fi
  done
done
# Auto's resolution under time limits: the lines that say what it runs.
# GA-EAX alone (the CPU, nothing named) from 1,000 cities, and beside the colonies when a
# population is named; the colonies alone below 1,000 cities.
budgets=(
  "alone|--time-limit 1"
  "beside|--time-limit 30 --population 30"
)
for instance in "${instances[@]}"; do
  for entry in "${budgets[@]}"; do
    name=${entry%%|*}
    read -r -a options <<<"${entry#*|}"
    tag=$(basename "$instance" .tsp)-resolved-$name
    for side in reference candidate; do
      binary=$reference
      [ "$side" = candidate ] && binary=$candidate
      "$binary" solve "$instance" --backend cpu --threads 2 --seed 7 "${options[@]}" \
        --target 1000000000000 2>&1 | grep -E '^formica: (auto|algorithm)' >"$work/$tag.$side.out" || true
    done
    if [ -s "$work/$tag.reference.out" ] && cmp -s "$work/$tag.reference.out" "$work/$tag.candidate.out"; then
      echo "same   $tag: $(grep -oE 'algorithm [a-z-]+|host-search=[a-z-]+' "$work/$tag.candidate.out" | tr '\n' ' ')"
    else
      echo "DIFFER $tag: auto resolves differently (see $work/$tag.*.out)"
      failures=$((failures + 1))
    fi
  done
done

[ "$failures" -eq 0 ] && echo "same_tours: every tour and every resolution the same" || echo "same_tours: $failures run(s) differ"
[ "$failures" -eq 0 ]
