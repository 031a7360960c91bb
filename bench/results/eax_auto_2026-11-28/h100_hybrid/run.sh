#!/usr/bin/env bash
# Issue 20: auto's host threads run GA-EAX beside the GPU colonies once the time limit pays
# (--host-search eax). The GPU suite's tests that this touches, then the new auto against the old
# (--host-search lin-kernighan) and GA-EAX alone on the 16 threads, same binary, one H100 host.
set -u
mkdir -p /tmp/b && tar -C /tmp/b -xJf device-pack/bin.tar.xz
F=/tmp/b/formica
D=$PWD/shared/tsplib_eax
export FORMICA_TEST_DATA_DIR=$PWD/tests/data FORMICA_CLI=$F FORMICA_TSPLIB_DIR=$D
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; } > $OUT/host.txt
for t in solver_tests localsearch_tests cli_tests distributed_tests "aco_tests --gtest_filter=*Merge*:*Hybrid*:*Focused*"; do
  echo "== $t"; timeout 300 /tmp/b/tests/$t 2>&1 | grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests ran" | head -20
done > $OUT/tests.txt 2>&1
cat $OUT/tests.txt
mkdir -p $OUT/r
run() {  # tag instance optimum limit seed [args]
  local tag=$1 i=$2 opt=$3 lim=$4 s=$5; shift 5
  $F solve $D/tsp/$i.tsp --time-limit $lim --target $opt --seed $s "$@" \
    --json $OUT/r/${i}_${tag}_s$s.json > $OUT/r/${i}_${tag}_s$s.log 2>&1
  python3 - $OUT/r/${i}_${tag}_s$s.json $opt $s $tag <<'PY'
import json, sys
path, opt, seed, tag = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (0.5, 1, 2, 3, 5, 10, 20, 30, 45, 60):
    r = [e["length"] for e in h if e["seconds"] <= b]
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}" if r else f"{b}s -")
hit = [e["seconds"] for e in h if e["length"] == opt]
print(f"{d['instance']:9s} {tag:5s} s{seed}: {d['best_length']} opt at {(f'{hit[0]:6.2f} s' if hit else ' never ')} | " + " ".join(at), flush=True)
PY
}
for s in 1 2; do
  for i in pcb3038:137694:6 fnl4461:182566:20; do
    IFS=: read n o l <<< "$i"
    run new $n $o $l $s
    run old $n $o $l $s --host-search lin-kernighan
    run eax $n $o $l $s --algorithm eax
  done
done | tee $OUT/bench.txt
grep -h "auto:" $OUT/r/*_new_s1.log | head -3 >> $OUT/bench.txt
tar -czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
