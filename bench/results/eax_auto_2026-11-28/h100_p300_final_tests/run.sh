#!/usr/bin/env bash
# Issue 20: fnl4461's seeds that end one unit above the optimum with auto: GA-EAX alone with a
# population of 300 (Nagata and Kobayashi's size) instead of 100, 60 s, one H100 host. First the
# GPU machine's run of the tests this session's change touches, final binaries.
set -u
mkdir -p /tmp/b && tar -C /tmp/b -xJf device-pack/bin.tar.xz
F=/tmp/b/formica
D=$PWD/shared/tsplib_eax
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; } > $OUT/host.txt
mkdir -p $OUT/r
export FORMICA_TEST_DATA_DIR=$PWD/tests/data FORMICA_CLI=$F FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
for t in solver_tests localsearch_tests cli_tests distributed_tests "aco_tests --gtest_filter=*Merge*:*Hybrid*:*Focused*"; do
  echo "== $t"; timeout 300 /tmp/b/tests/$t 2>&1 | grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests ran" | head -20
done > $OUT/tests.txt 2>&1
cat $OUT/tests.txt
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
for s in 1 4 5; do run p300 fnl4461 182566 60 $s --algorithm eax --population 300; done | tee $OUT/bench.txt
tar -czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
