# Lane 1 (GPU 1, cores 16-31): every test binary of the CUDA build, the full TSPLIB folder carried.
# Lane 0 (GPU 0, cores 0-15): a million cities at 120 s (seed 1) with 3, 1, 1 chains; pla33810 at 60 s, seed 1,
# the default and --lk-lists quadrant.
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
mkdir -p build-dev && tar -C build-dev -xJf device-pack/bin.tar.xz
F=$PWD/build-dev/formica B=$PWD/build-dev/tests
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
mkdir -p $OUT/r
one() {  # tag file limit seed [args]
  local tag=$1 file=$2 lim=$3 seed=$4; shift 4
  CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 $F solve $file --time-limit $lim --seed $seed --threads 16 --lk-threads 14 \
    --merge-tours true "$@" --json $OUT/r/$tag.json --tour-out /tmp/$tag.tour > $OUT/r/$tag.log 2>&1
  local v=$($F verify $file /tmp/$tag.tour | tail -n 1)
  python3 - $OUT/r/$tag.json $tag "$v" <<'PY'
import json, sys
path, tag, v = sys.argv[1], sys.argv[2], sys.argv[3]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
print(tag, " ".join(f"{b}s {min((e['length'] for e in h if e['seconds'] <= b), default='-')}" for b in (30, 60, 90, 120)),
      d["best_length"], d.get("gap"), "|", v, flush=True)
PY
}
(
  $F generate --cities 1000000 --seed 1 --output /tmp/u1m.tsp > /dev/null
  one 1m_s1 /tmp/u1m.tsp 120 1
  one pla33810_s1 $FORMICA_TSPLIB_DIR/tsp/pla33810.tsp 60 1
  one pla33810_q_s1 $FORMICA_TSPLIB_DIR/tsp/pla33810.tsp 60 1 --lk-lists quadrant
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
