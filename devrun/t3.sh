# Lane 0 (GPU 0, cores 0-15): a million cities at 120 s, seeds 1 and 2, the default (stretches walked on two-level lists).
# Lane 1 (GPU 1, cores 16-31): every test binary of the CUDA build, in parallel, the full TSPLIB folder carried.
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
mkdir -p build-dev && tar -C build-dev -xJf device-pack/bin.tar.xz
F=$PWD/build-dev/formica B=$PWD/build-dev/tests
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
mkdir -p $OUT/r
(
  $F generate --cities 1000000 --seed 1 --output /tmp/u1m.tsp > /dev/null
  for s in 1 2; do
    CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 $F solve /tmp/u1m.tsp --time-limit 120 --seed $s --threads 16 --lk-threads 14 \
      --merge-tours true --json $OUT/r/1m_s$s.json --tour-out /tmp/t.tour > $OUT/r/1m_s$s.log 2>&1
    $F verify /tmp/u1m.tsp /tmp/t.tour | tail -n 1
    python3 - $OUT/r/1m_s$s.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d.pop("tour", None); json.dump(d, open(sys.argv[1], "w"), indent=1)
h = d["history"]
print(sys.argv[1].split("/")[-1], " ".join(f"{b}s {min((e['length'] for e in h if e['seconds'] <= b), default='-')}" for b in (40, 60, 80, 100, 120)), d["best_length"], "first", h[0]["seconds"])
PY
  done
) > $OUT/r/lane0.txt 2>&1 &
for t in core bounds io aco solver batch localsearch cli cuda distributed; do
  ( CUDA_VISIBLE_DEVICES=1 taskset -c 16-31 timeout 290 $B/${t}_tests > $OUT/r/$t.log 2>&1; echo "rc=$?" >> $OUT/r/$t.log ) &
done
wait
for t in core bounds io aco solver batch localsearch cli cuda distributed; do
  echo "$t: $(grep -E '^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]|tests ran|^rc=' $OUT/r/$t.log | tr '\n' ' ')"
done | tee $OUT/tests.txt
grep -h "FAILED" $OUT/r/*.log | head -20
cat $OUT/r/lane0.txt
gzip -9 $OUT/r/*.log; tar -C $OUT -czf $OUT/r.tgz r && rm -rf $OUT/r
