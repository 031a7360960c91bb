# Lane 1 (GPU 1, cores 16-31): every test binary of the CUDA build, then pla85900 120 s seed 1 with the
# colonies on quadrant lists too (--neighbour-lists quadrant). Lane 0 (GPU 0, cores 0-15): a million
# cities 120 s seed 1 (quadrant stretch lists now the default); pla85900 --neighbour-lists quadrant seeds 2, 3.
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
mkdir -p build-dev && tar -C build-dev -xJf device-pack/bin.tar.xz
F=$PWD/build-dev/formica B=$PWD/build-dev/tests
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
mkdir -p $OUT/r
one() {  # lane tag file limit seed opt [args]
  local lane=$1 tag=$2 file=$3 lim=$4 seed=$5 opt=$6; shift 6
  CUDA_VISIBLE_DEVICES=$lane taskset -c $((16*lane))-$((16*lane+15)) $F solve $file --time-limit $lim --seed $seed \
    --threads 16 --lk-threads 14 --merge-tours true "$@" --json $OUT/r/$tag.json --tour-out /tmp/$tag.tour > $OUT/r/$tag.log 2>&1
  local v=$($F verify $file /tmp/$tag.tour | tail -n 1)
  python3 - $OUT/r/$tag.json $tag $opt "$v" <<'PY'
import json, sys
path, tag, opt, v = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (10, 30, 60, 90, 120):
    r = [e["length"] for e in h if e["seconds"] <= b]
    if not r: at.append(f"{b}s -"); continue
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}%" if opt > 0 else f"{b}s {min(r)}")
best = d['best_length']
g = f" ({100*(best-opt)/opt:.4f}%)" if opt > 0 else ""
print(f"{tag:18s} {best}{g} | " + " ".join(at) + f" | {v}", flush=True)
PY
}
P=$FORMICA_TSPLIB_DIR/tsp/pla85900.tsp
(
  $F generate --cities 1000000 --seed 1 --output /tmp/u1m.tsp > /dev/null
  one 0 1m_s1 /tmp/u1m.tsp 120 1 0
  one 0 pla_nq_s2 $P 120 2 142382641 --neighbour-lists quadrant
  one 0 pla_nq_s3 $P 120 3 142382641 --neighbour-lists quadrant
) > $OUT/lane0.txt 2>&1 &
(
  for t in core bounds io aco solver batch localsearch cli cuda distributed; do
    ( CUDA_VISIBLE_DEVICES=1 taskset -c 16-31 timeout 290 $B/${t}_tests > $OUT/r/$t.log 2>&1; echo "rc=$?" >> $OUT/r/$t.log ) &
  done
  wait
  one 1 pla_nq_s1 $P 120 1 142382641 --neighbour-lists quadrant > $OUT/lane1.txt 2>&1
) &
wait
for t in core bounds io aco solver batch localsearch cli cuda distributed; do
  echo "$t: $(grep -E '^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]|tests ran|^rc=' $OUT/r/$t.log | tr '\n' ' ')"
done | tee $OUT/tests.txt
grep -h "FAILED" $OUT/r/*.log | head -20
cat $OUT/lane0.txt $OUT/lane1.txt
grep -h "auto:" $OUT/r/1m_s1.log $OUT/r/pla_nq_s1.log | cut -c1-500
gzip -9 $OUT/r/*.log; tar -C $OUT -czf $OUT/r.tgz r && rm -rf $OUT/r
