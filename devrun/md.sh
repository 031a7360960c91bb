# Lane 0: 200,000 uniform cities 300 s seed 1 (the default, quadrant lists for the threads from 30,000 cities).
# Lane 1: pla85900 520 s seed 2 (the default: GA-EAX host threads past auto's 485-s rule).
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
mkdir -p build-dev && tar -C build-dev -xJf device-pack/bin.tar.xz
F=$PWD/build-dev/formica
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
for b in (30, 60, 100, 120, 200, 300, 400, 500, 520):
    r = [e["length"] for e in h if e["seconds"] <= b]
    if not r: at.append(f"{b}s -"); continue
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}%" if opt > 0 else f"{b}s {min(r)}")
best = d['best_length']
g = f" ({100*(best-opt)/opt:.4f}%)" if opt > 0 else ""
print(f"{tag:18s} {best}{g} | " + " ".join(at) + f" | {v}", flush=True)
PY
}
( $F generate --cities 200000 --seed 1 --output /tmp/u200k.tsp > /dev/null
  one 0 u200k_s1 /tmp/u200k.tsp 300 1 0 ) > $OUT/lane0.txt 2>&1 &
one 1 pla_s2_520 $FORMICA_TSPLIB_DIR/tsp/pla85900.tsp 520 2 142382641 > $OUT/lane1.txt 2>&1 &
wait
cat $OUT/lane0.txt $OUT/lane1.txt
grep -h "auto:" $OUT/r/*.log | cut -c1-500
gzip -9 $OUT/r/*.log; tar -C $OUT -czf $OUT/r.tgz r && rm -rf $OUT/r
