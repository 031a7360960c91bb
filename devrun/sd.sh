# Replayed shared walks against adopting ones (FORMICA_ADOPT=1, a switch of this test build only):
# the threads alone on pla85900 from the colonies' start, 14 threads, 60 s; then the solver, 120 s.
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
cd device-pack && tar -xJf bin.tar.xz && tar -xJf bench.tar.xz && cd ..
B=$PWD/device-pack/large_tour_bench
F=$PWD/device-pack/formica
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
C="--instance pla85900 --lists quadrant --lk-step 3opt --seconds 60 --every 5 --threads 14 --whole-only"
( taskset -c 0-15 $B $C > $OUT/bench_replay.txt 2>&1 ) &
( FORMICA_ADOPT=1 taskset -c 16-31 $B $C > $OUT/bench_adopt.txt 2>&1 ) &
wait
mkdir -p $OUT/raw
one() {  # lane tag seed [env]
  local lane=$1 tag=$2 seed=$3; shift 3
  env "$@" CUDA_VISIBLE_DEVICES=$lane taskset -c $((16*lane))-$((16*lane+15)) $F solve $FORMICA_TSPLIB_DIR/tsp/pla85900.tsp --time-limit 120 --seed $seed \
    --threads 16 --lk-threads 14 --merge-tours true --json $OUT/raw/$tag.json --tour-out /tmp/$tag.tour > $OUT/raw/$tag.log 2>&1
  local v=$($F verify $FORMICA_TSPLIB_DIR/tsp/pla85900.tsp /tmp/$tag.tour | tail -n 1)
  python3 - $OUT/raw/$tag.json $tag 142382641 "$v" <<'PY'
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
for s in 1 2; do
  a=$(( s % 2 )); b=$(( 1 - s % 2 ))
  one $a replay_s$s $s X=1 >> $OUT/solver.txt &
  one $b adopt_s$s $s FORMICA_ADOPT=1 >> $OUT/solver.txt &
  wait
done
cat $OUT/solver.txt
