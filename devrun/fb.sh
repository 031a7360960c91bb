# pla85900, 120 s, --lk-lists quadrant, seeds 2-5; the 200,000-city instance at 300 s, seed 1.
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
cd device-pack && tar -xJf bin.tar.xz && cd ..
F=$PWD/device-pack/formica
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
mkdir -p $OUT/raw
one() {  # lane tag file limit seed [args]
  local lane=$1 tag=$2 file=$3 lim=$4 seed=$5; shift 5
  CUDA_VISIBLE_DEVICES=$lane taskset -c $((16*lane))-$((16*lane+15)) $F solve $file --time-limit $lim --seed $seed \
    --threads 16 --lk-threads 14 --merge-tours true "$@" --json $OUT/raw/$tag.json --tour-out /tmp/$tag.tour > $OUT/raw/$tag.log 2>&1
  local v=$($F verify $file /tmp/$tag.tour | tail -n 1)
  python3 - $OUT/raw/$tag.json $tag "$v" <<'PY'
import json, sys
path, tag, v = sys.argv[1], sys.argv[2], sys.argv[3]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
opt = 142382641 if tag.startswith("pla") else None
at = []
for b in (10, 20, 30, 60, 90, 120, 300):
    r = [e["length"] for e in h if e["seconds"] <= b]
    if not r: at.append(f"{b}s -"); continue
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}%" if opt else f"{b}s {min(r)}")
best = d['best_length']
g = f" ({100*(best-opt)/opt:.4f}%)" if opt else ""
print(f"{tag:16s} {best}{g} | " + " ".join(at) + f" | {v}", flush=True)
PY
}
P=$FORMICA_TSPLIB_DIR/tsp/pla85900.tsp
$F generate --cities 200000 --seed 1 --output /tmp/u200k.tsp > /dev/null
( for s in 2 3 4; do one 0 pla_q_s$s $P 120 $s --lk-lists quadrant; done ) > $OUT/lane0.txt &
( one 1 u200k_s1 /tmp/u200k.tsp 300 1; one 1 pla_q_s5 $P 120 5 --lk-lists quadrant ) > $OUT/lane1.txt &
wait
cat $OUT/lane0.txt $OUT/lane1.txt
grep -h "auto:" $OUT/raw/u200k_s1.log $OUT/raw/pla_q_s2.log | cut -c1-400
tar -C $OUT -czf $OUT/raw.tgz raw && rm -rf $OUT/raw
