# Lane 0 (GPU 0, cores 0-15): the 200,000-city instance at 300 s with the default (decomposed).
# Lane 1 (GPU 1, cores 16-31): every test binary of the CUDA build, in parallel.
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
mkdir -p build-dev && tar -C build-dev -xJf device-pack/bin.tar.xz
F=$PWD/build-dev/formica B=$PWD/build-dev/tests
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
mkdir -p $OUT/r
(
  $F generate --cities 200000 --seed 1 --output /tmp/u200k.tsp > /dev/null
  CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 $F solve /tmp/u200k.tsp --time-limit 300 --seed 1 --threads 16 --lk-threads 14 \
    --merge-tours true --json $OUT/r/200k_300s.json --tour-out /tmp/t.tour > $OUT/r/200k_300s.log 2>&1
  $F verify /tmp/u200k.tsp /tmp/t.tour | tail -n 1 > $OUT/r/200k_verify.txt
  python3 - $OUT/r/200k_300s.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d.pop("tour", None); json.dump(d, open(sys.argv[1], "w"), indent=1)
h = d["history"]
print(" ".join(f"{b}s {min(e['length'] for e in h if e['seconds'] <= b)}" for b in (60, 100, 200, 300)), d["best_length"])
PY
) > $OUT/r/lane0.txt 2>&1 &
for t in core bounds io aco solver batch localsearch cli cuda distributed; do
  ( CUDA_VISIBLE_DEVICES=1 taskset -c 16-31 timeout 290 $B/${t}_tests > $OUT/r/$t.log 2>&1; echo "rc=$?" >> $OUT/r/$t.log ) &
done
wait
for t in core bounds io aco solver batch localsearch cli cuda distributed; do
  echo "$t: $(grep -E '^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]|tests ran|^rc=' $OUT/r/$t.log | tr '\n' ' ')"
done | tee $OUT/tests.txt
cat $OUT/r/lane0.txt $OUT/r/200k_verify.txt
gzip -9 $OUT/r/*.log; tar -C $OUT -czf $OUT/r.tgz r && rm -rf $OUT/r
