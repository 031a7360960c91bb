#!/usr/bin/env bash
# Issue 20's first target on fnl4461 with the new auto (GPU colonies + 14 GA-EAX host threads):
# 5 seeds, 60 s, each stopping at the optimum; usa13509 60 s seed 1; adopted tours sharing one
# slot of the population (EdgeAssemblySearch::adopt).
set -u
mkdir -p /tmp/b && tar -C /tmp/b -xJf device-pack/bin.tar.xz
F=/tmp/b/formica
D=$PWD/shared/tsplib_eax
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; } > $OUT/host.txt
mkdir -p $OUT/r
/tmp/b/tests/localsearch_tests --gtest_filter='*EaxCompanion*:*Adopt*:EdgeAssembly*' 2>&1 | tail -n 2 | tee $OUT/tests.txt
run() {  # tag instance optimum limit seed [args]
  local tag=$1 i=$2 opt=$3 lim=$4 s=$5; shift 5
  $F solve $D/tsp/$i.tsp --time-limit $lim --target $opt --seed $s "$@" \
    --json $OUT/r/${i}_${tag}_s$s.json --tour-out /tmp/t.tour > $OUT/r/${i}_${tag}_s$s.log 2>&1
  local v=$($F verify $D/tsp/$i.tsp /tmp/t.tour | tail -n 1)
  python3 - $OUT/r/${i}_${tag}_s$s.json $opt $s $tag "$v" <<'PY'
import json, sys
path, opt, seed, tag, v = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (1, 3, 10, 30, 60, 90, 120):
    r = [e["length"] for e in h if e["seconds"] <= b]
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}" if r else f"{b}s -")
hit = [e["seconds"] for e in h if e["length"] == opt]
print(f"{d['instance']:9s} {tag:5s} s{seed}: {d['best_length']} opt at {(f'{hit[0]:6.2f} s' if hit else ' never ')} | " + " ".join(at) + f" | {v}", flush=True)
PY
}
for s in 1 2 3 4 5; do run auto fnl4461 182566 60 $s; done | tee $OUT/bench.txt
grep -h "auto:" $OUT/r/fnl4461_auto_s1.log >> $OUT/bench.txt
run auto usa13509 19982859 60 1 | tee -a $OUT/bench.txt
tar -czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
