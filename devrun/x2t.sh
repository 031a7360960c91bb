# Two solves at once on the 2 x H200 host (lane L: GPU L, cores 16L..16L+15, --threads 16
# --lk-threads 14 --merge-tours true as auto gives a 16-core one-GPU host): big stretches against
# whole-tour threads, same seed, same moment.
set -u
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
F=$PWD/device-pack/formica; chmod +x $F
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
$F generate --cities 1000000 --seed 1 --output /tmp/u1m.tsp > /dev/null &
$F generate --cities 200000 --seed 1 --output /tmp/u200k.tsp > /dev/null
wait
mkdir -p $OUT/raw
one() {  # lane tag file limit [args]
  local lane=$1 tag=$2 file=$3 lim=$4; shift 4
  CUDA_VISIBLE_DEVICES=$lane taskset -c $((16*lane))-$((16*lane+15)) $F solve $file --time-limit $lim --seed $SEED \
    --threads 16 --lk-threads 14 --merge-tours true "$@" --json $OUT/raw/$tag.json --tour-out /tmp/$tag.tour > $OUT/raw/$tag.log 2>&1
  local v=$($F verify $file /tmp/$tag.tour | tail -n 1)
  python3 - $OUT/raw/$tag.json $tag "$v" <<'PY'
import json, sys
path, tag, v = sys.argv[1], sys.argv[2], sys.argv[3]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (10, 20, 30, 40, 60, 90, 120):
    r = [e["length"] for e in h if e["seconds"] <= b]
    at.append(f"{b}s {min(r)}" if r else f"{b}s -")
print(f"{tag:22s} {d['best_length']} | " + " ".join(at) + f" | {v}", flush=True)
PY
}
lane() {  # lane, then "" for the default or extra args
  local l=$1; shift
  for SEED in 2 3; do
    one $l ${TAG}200k_s$SEED /tmp/u200k.tsp 60 "$@"
  done
  SEED=2; one $l ${TAG}1m_s2 /tmp/u1m.tsp 120 "$@"
}
( TAG=stretch_; lane 0 ) > $OUT/lane0.txt &
( TAG=whole_; lane 1 --lk-stretch 0 ) > $OUT/lane1.txt &
wait
cat $OUT/lane0.txt $OUT/lane1.txt
grep -h "auto:" $OUT/raw/*.log | cut -c1-300
tar -C $OUT -czf $OUT/raw.tgz raw && rm -rf $OUT/raw
