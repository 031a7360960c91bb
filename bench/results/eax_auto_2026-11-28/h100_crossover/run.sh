#!/usr/bin/env bash
# Issue 20, where auto should hand over to GA-EAX: eax and auto (GPU + LK threads) side by side on
# one H100 host, each run stopping at the optimum (--target), gaps read from the history at marks.
# Then fnl4461 with --eax-growth 1 on the seeds that ended at +1 with growth 2 (session 44).
set -u
F=$PWD/build-dev/formica
D=$PWD/shared/tsplib_eax
mkdir -p $OUT/r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; } > $OUT/host.txt
run() {  # tag instance optimum limit seed [args]
  local tag=$1 i=$2 opt=$3 lim=$4 s=$5; shift 5
  $F solve $D/tsp/$i.tsp --time-limit $lim --target $opt --seed $s "$@" \
    --json $OUT/r/${i}_${tag}_s$s.json --quiet > $OUT/r/${i}_${tag}_s$s.log 2>&1
  python3 - $OUT/r/${i}_${tag}_s$s.json $opt $s $tag <<'PY'
import json, sys
path, opt, seed, tag = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (0.5, 1, 1.5, 2, 3, 5, 10, 20, 30, 45, 60):
    r = [e["length"] for e in h if e["seconds"] <= b]
    at.append(f"{b}s {100*(min(r)-opt)/opt:.3f}" if r else f"{b}s -")
hit = [e["seconds"] for e in h if e["length"] == opt]
print(f"{d['instance']:9s} {tag:5s} s{seed}: opt at {(f'{hit[0]:6.2f} s' if hit else ' never ')} | " + " ".join(at), flush=True)
PY
}
for i in rat783:8806 pr1002:259045 d1291:50801 fl1577:22249 u1817:57201 pr2392:378032 pcb3038:137694; do
  for s in 1 2; do
    run eax ${i%:*} ${i#*:} 10 $s --algorithm eax
    run auto ${i%:*} ${i#*:} 10 $s
  done
done | tee $OUT/cross.txt
for s in 1 2 4; do run eaxg1 fnl4461 182566 60 $s --algorithm eax --eax-growth 1; done | tee $OUT/fnl_growth1.txt
tar -czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
