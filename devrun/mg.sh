# pla85900 120 s, seed 5: --lk-replay true on lane 1, the default on lane 0, at the same time.
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
mkdir -p build-dev && tar -C build-dev -xJf device-pack/bin.tar.xz
F=$PWD/build-dev/formica
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
one 1 replay_s5 5 --lk-replay true > $OUT/lane1.txt 2>&1 &
one 0 default_s5 5 > $OUT/lane0.txt 2>&1 &
wait
cat $OUT/lane0.txt $OUT/lane1.txt
