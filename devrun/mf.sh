# Lane 1 (GPU 1, cores 16-31): every test binary of the CUDA build. Lane 0 (GPU 0, cores 0-15):
# pla85900 120 s, --lk-replay true against the default, seeds 3 and 4, one after the other.
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
mkdir -p build-dev && tar -C build-dev -xJf device-pack/bin.tar.xz
F=$PWD/build-dev/formica B=$PWD/build-dev/tests
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
mkdir -p $OUT/r
one() {  # lane tag seed [args]
  local lane=$1 tag=$2 seed=$3; shift 3
  CUDA_VISIBLE_DEVICES=$lane taskset -c $((16*lane))-$((16*lane+15)) $F solve $FORMICA_TSPLIB_DIR/tsp/pla85900.tsp --time-limit 120 --seed $seed \
    --threads 16 --lk-threads 14 --merge-tours true "$@" --json $OUT/r/$tag.json --tour-out /tmp/$tag.tour > $OUT/r/$tag.log 2>&1
  local v=$($F verify $FORMICA_TSPLIB_DIR/tsp/pla85900.tsp /tmp/$tag.tour | tail -n 1)
  python3 - $OUT/r/$tag.json $tag 142382641 "$v" <<'PY'
import json, sys
path, tag, opt, v = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (10, 20, 30, 60, 90, 120):
    r = [e["length"] for e in h if e["seconds"] <= b]
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}%" if r else f"{b}s -")
best = d['best_length']
print(f"{tag:14s} {best} ({100*(best-opt)/opt:.4f}%) | " + " ".join(at) + f" | {v}", flush=True)
PY
}
(
  one 0 replay_s3 3 --lk-replay true
  one 0 default_s3 3
  one 0 default_s4 4
  one 0 replay_s4 4 --lk-replay true
) > $OUT/lane0.txt 2>&1 &
(
  for t in core bounds io aco solver batch localsearch cli cuda distributed; do
    ( CUDA_VISIBLE_DEVICES=1 taskset -c 16-31 timeout 290 $B/${t}_tests > $OUT/r/$t.log 2>&1; echo "rc=$?" >> $OUT/r/$t.log ) &
  done
  wait
) &
wait
for t in core bounds io aco solver batch localsearch cli cuda distributed; do
  echo "$t: $(grep -E '^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]|tests ran|^rc=' $OUT/r/$t.log | tr '\n' ' ')"
done | tee $OUT/tests.txt
grep -h "FAILED" $OUT/r/*.log | head -20
cat $OUT/lane0.txt
