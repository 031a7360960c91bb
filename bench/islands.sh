#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The island model's comparison (docs/distributed.md): R MPI ranks of T threads each against one process of
# R x T threads, the same wall time, on the CPU backend, several seeds; prints a table of gaps to
# the TSPLIB optimum (each run's `--json` report) and their medians.
#   bench/islands.sh BUILD_DIR [SECONDS] [INSTANCE...]
# Defaults are docs/distributed.md's: 4 ranks x 4 threads against 1 x 16 threads (a 16-core host), 10 s,
# pr2392 and fnl4461, seeds 1 to 5. RANKS, THREADS and SEEDS (a count) in the environment change
# them, e.g. RANKS=2 THREADS=1 SEEDS=3 bench/islands.sh build 10 pr1002 on a 2-core machine.
# Needs a formica built with FORMICA_MPI and an MPI launcher `mpirun` (Open MPI 4.1 was used;
# MPICH's mpiexec takes the same -np; set MPIRUN="mpiexec" and drop Open MPI's flags via
# MPIRUN_FLAGS=""). TSPLIB files from $FORMICA_TSPLIB_DIR/tsp (default ../shared/tsplib/tsp).
set -euo pipefail
build=$1
seconds=${2:-10}
shift $(($# >= 2 ? 2 : 1))
instances=("$@")
[ ${#instances[@]} -gt 0 ] || instances=(pr2392 fnl4461)
ranks=${RANKS:-4} threads=${THREADS:-4} seeds=${SEEDS:-5}
tsplib=${FORMICA_TSPLIB_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/shared/tsplib}
mpirun=(${MPIRUN:-mpirun})
# Threads of every rank run free (Open MPI binds each rank to one core by default with few ranks).
read -r -a mpirun_flags <<<"${MPIRUN_FLAGS:---oversubscribe --bind-to none}"
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gap() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.3f" % d["gap"])' "$1"; }
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

echo "formica islands: ${ranks} ranks x ${threads} threads against 1 x $((ranks * threads)) threads, ${seconds} s, CPU backend, $(nproc) cores here"
printf '%-10s %-22s %s  %s\n' instance run "gaps % (seeds 1..${seeds})" median
for name in "${instances[@]}"; do
  file="$tsplib/tsp/$name.tsp"
  [ -f "$file" ] || { echo "no $file (set FORMICA_TSPLIB_DIR)" >&2; exit 1; }
  islands=() single=()
  for seed in $(seq 1 "$seeds"); do
    "${mpirun[@]}" "${mpirun_flags[@]}" -np "$ranks" "$build/formica" solve "$file" --backend cpu --threads "$threads" \
      --time-limit "$seconds" --seed "$seed" --quiet --json "$work/islands.json" >/dev/null
    islands+=("$(gap "$work/islands.json")")
    "$build/formica" solve "$file" --backend cpu --threads $((ranks * threads)) --time-limit "$seconds" --seed "$seed" \
      --quiet --json "$work/single.json" >/dev/null
    single+=("$(gap "$work/single.json")")
  done
  printf '%-10s %-22s %s  %s\n' "$name" "${ranks} ranks x ${threads} threads" "${islands[*]}" "$(median "${islands[@]}")"
  printf '%-10s %-22s %s  %s\n' "$name" "1 rank x $((ranks * threads)) threads" "${single[*]}" "$(median "${single[@]}")"
done
