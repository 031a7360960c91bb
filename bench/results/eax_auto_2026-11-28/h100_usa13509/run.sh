#!/usr/bin/env bash
# Issue 20: the EaxCompanion test after its fix, the CLI tests with the full TSPLIB folder, and
# usa13509 60 s: new auto (host threads GA-EAX) against the old (--host-search lin-kernighan), seed 1.
set -u
mkdir -p /tmp/b && tar -C /tmp/b -xJf device-pack/bin.tar.xz
F=/tmp/b/formica
D=$PWD/shared/tsplib_eax
export FORMICA_TEST_DATA_DIR=$PWD/tests/data FORMICA_CLI=$F FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; } > $OUT/host.txt
{ /tmp/b/tests/localsearch_tests --gtest_filter='*EaxCompanion*:*Adopt*:EdgeAssembly*' 2>&1 | tail -n 3
  /tmp/b/tests/cli_tests 2>&1 | grep -E "^\[  (PASSED|FAILED) |FAILED" | head; } > $OUT/tests.txt 2>&1
cat $OUT/tests.txt
mkdir -p $OUT/r
for tag in new old; do
  extra=""; [ $tag = old ] && extra="--host-search lin-kernighan"
  $F solve $D/tsp/usa13509.tsp --time-limit 60 --seed 1 $extra --json $OUT/r/usa13509_${tag}.json > $OUT/r/usa13509_${tag}.log 2>&1
  python3 - $OUT/r/usa13509_${tag}.json 19982859 $tag <<'PY'
import json, sys
path, opt, tag = sys.argv[1], int(sys.argv[2]), sys.argv[3]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (1, 3, 10, 20, 30, 45, 60):
    r = [e["length"] for e in h if e["seconds"] <= b]
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}" if r else f"{b}s -")
print(f"usa13509 {tag}: {d['best_length']} | " + " ".join(at), flush=True)
PY
done | tee $OUT/bench.txt
tar -czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
