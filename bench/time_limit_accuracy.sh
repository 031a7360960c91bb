#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Time-limit accuracy (docs/reliability.md): `formica solve FILE --time-limit T` as a fresh process on seeded
# uniform instances from 10 to 200,000 cities, the wall time measured around the process (reading
# the file, every preprocessing step, the polish, writing the tour and exiting all count: the limit
# counts from program start). A run is on time when it ends within max(5 %, 50 ms) of the limit.
# Prints a Markdown table; exits 1 if any run is late.
#   bench/time_limit_accuracy.sh BUILD_DIR [--sizes N,N,...] [--limits S,S,...] [--backend cpu|cuda|auto]
#                                [--runs R] [--out DIR]
# Defaults: sizes 10,100,1000,10000,50000,100000,200000; limits 2,5; backend cpu; 1 run each.
# The instances (formica generate --kind uniform --seed 1) are made before any timing.
set -euo pipefail
build=$1
shift
sizes=10,100,1000,10000,50000,100000,200000 limits=2,5 backend=cpu runs=1 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) sizes=$2; shift 2 ;;
    --limits) limits=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "time_limit_accuracy.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
formica=$build/formica
[ -x "$formica" ] || { echo "time_limit_accuracy.sh: $formica not found (build it first)" >&2; exit 2; }
work=${out:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$out" ] || trap 'rm -rf "$work"' EXIT
IFS=, read -r -a size_list <<<"$sizes"
IFS=, read -r -a limit_list <<<"$limits"

for n in "${size_list[@]}"; do
  [ -f "$work/uniform$n.tsp" ] ||
    "$formica" generate --cities "$n" --kind uniform --seed 1 --output "$work/uniform$n.tsp" >/dev/null
done

now() { date +%s.%N; }
echo "| cities | limit (s) | wall (s) | over (s) | over (%) | solver's own seconds | iterations | on time (max(5 %, 50 ms)) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---|"
late=0
for n in "${size_list[@]}"; do
  for limit in "${limit_list[@]}"; do
    for ((run = 1; run <= runs; ++run)); do
      start=$(now)
      set +e
      line=$("$formica" solve "$work/uniform$n.tsp" --time-limit "$limit" --backend "$backend" --quiet \
        --tour-out "$work/uniform$n.tour" 2>"$work/stderr")
      rc=$?
      set -e
      end=$(now)
      if [ "$rc" -ne 0 ]; then
        echo "| $n | $limit | exit $rc: $(head -n 1 "$work/stderr") | | | | | no |"
        late=1
        continue
      fi
      # "NAME: best L after I iterations in S s, ..."
      iterations=$(sed -n 's/.* after \([0-9]*\) iterations in .*/\1/p' <<<"$line")
      seconds=$(sed -n 's/.* iterations in \([0-9.]*\) s,.*/\1/p' <<<"$line")
      row=$(awk -v n="$n" -v t="$limit" -v s="$start" -v e="$end" -v own="$seconds" -v it="$iterations" 'BEGIN {
        wall = e - s; over = wall - t; slack = (0.05 * t > 0.05) ? 0.05 * t : 0.05;
        ok = (over <= slack) ? "yes" : "NO";
        printf "| %d | %g | %.3f | %+.3f | %+.1f | %s | %s | %s |", n, t, wall, over, 100 * over / t, own, it, ok }')
      echo "$row"
      [[ $row == *"| NO |" ]] && late=1
    done
  done
done
exit $late
