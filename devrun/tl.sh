# Two-level list walks on the 2 x H200 host: pla85900 at 120 s, 5 seeds, and 200k at 60 s, seed 1.
set -u
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
F=$PWD/device-pack/formica; chmod +x $F
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
for b in (10, 20, 30, 60, 90, 120):
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
( one 0 pla_s1 $P 120 1; one 0 pla_s3 $P 120 3; one 0 pla_s5 $P 120 5 ) > $OUT/lane0.txt &
( one 1 pla_s2 $P 120 2; one 1 pla_s4 $P 120 4; one 1 200k_s1 /tmp/u200k.tsp 60 1 ) > $OUT/lane1.txt &
wait
cat $OUT/lane0.txt $OUT/lane1.txt
grep -h "auto:\|kicks" $OUT/raw/*.log | cut -c1-300 | head -20
tar -C $OUT -czf $OUT/raw.tgz raw && rm -rf $OUT/raw
