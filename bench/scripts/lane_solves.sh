#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Two solves at once on a host with two GPUs and 32 cores: lane L has GPU L and cores 16L..16L+15
# (--threads 16, --lk-threads 14: what auto gives on a 16-core host with one GPU). Each run's gap to
# the optimum at 1/3/10/30/60/100/120 s (program start counted) is read from its history, and every
# final tour is verified. The five-seed figures of docs/against-lkh3.md came from this script.
#   OUT=DIR FORMICA=build/formica FORMICA_TSPLIB_DIR=DIR bench/scripts/lane_solves.sh "LANE0 JOBS" "LANE1 JOBS"
# Each job is "instance:limit:seed", jobs separated by spaces; OUT receives host.txt, lane0.txt,
# lane1.txt and raw.tgz (the runs' JSON and logs; keep them out of git).
set -u
: "${OUT:?set OUT to an output folder}" "${FORMICA_TSPLIB_DIR:?set FORMICA_TSPLIB_DIR}"
mkdir -p "$OUT"
F=${FORMICA:-build/formica}
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name\|NUMA node"; date -u; } > $OUT/host.txt
cat $OUT/host.txt; taskset -c 0-15 $F solve $FORMICA_TSPLIB_DIR/tsp/usa13509.tsp --time-limit 1 2>&1 | grep -o "with [0-9]* host threads[^(]*" | head -1
one() {  # lane instance limit seed
  local lane=$1 i=$2 lim=$3 s=$4
  local opt=$(grep "^$i," $FORMICA_TSPLIB_DIR/solutions.csv | cut -d, -f4)
  local tag=${i}_${lim}s_s$s
  CUDA_VISIBLE_DEVICES=$lane taskset -c $((16*lane))-$((16*lane+15)) $F solve $FORMICA_TSPLIB_DIR/tsp/$i.tsp --time-limit $lim --seed $s \
    --threads 16 --lk-threads 14 --merge-tours true --json $OUT/$tag.json --tour-out /tmp/$tag.tour > $OUT/$tag.log 2>&1
  local v=$($F verify $FORMICA_TSPLIB_DIR/tsp/$i.tsp /tmp/$tag.tour | tail -n 1)
  python3 - $OUT/$tag.json $opt $s $lane "$v" <<'PY'
import json, sys
path, opt, seed, lane, v = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (1, 3, 10, 30, 60, 100, 120):
    r = [e["length"] for e in h if e["seconds"] <= b]
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}" if r else f"{b}s -")
print(f"{d['instance']:9s} s{seed} lane{lane}: {d['best_length']} | " + " ".join(at) + f" | {v}", flush=True)
PY
}
lane() { local l=$1; shift; for job in "$@"; do IFS=: read -r i lim s <<< "$job"; one $l $i $lim $s; done; }
read -ra J0 <<< "$1"; read -ra J1 <<< "$2"
lane 0 "${J0[@]}" > $OUT/lane0.txt &
lane 1 "${J1[@]}" > $OUT/lane1.txt &
wait
cat $OUT/lane0.txt $OUT/lane1.txt
grep -h "auto:" $OUT/*.log | sort | uniq -c | cut -c1-400
mkdir -p $OUT/raw && mv $OUT/*.json $OUT/*.log $OUT/raw/ 2>/dev/null; tar -C $OUT -czf $OUT/raw.tgz raw && rm -rf $OUT/raw
