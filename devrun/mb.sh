# --lk-lists quadrant against the default (colonies' lists) end to end: usa13509 10 s, d18512 20 s
# (5 and 3 seeds), pla33810 60 s (seeds 2, 3), 200k 60 s (seeds 1, 2). The two settings of a seed run
# at once, one a lane, lanes swapped from seed to seed.
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
cd device-pack && tar -xJf bin.tar.xz && cd ..
F=$PWD/device-pack/formica
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
mkdir -p $OUT/raw
$F generate --cities 200000 --seed 1 --output /tmp/u200k.tsp > /dev/null
one() {  # lane tag file limit seed opt [args]
  local lane=$1 tag=$2 file=$3 lim=$4 seed=$5 opt=$6; shift 6
  CUDA_VISIBLE_DEVICES=$lane taskset -c $((16*lane))-$((16*lane+15)) $F solve $file --time-limit $lim --seed $seed \
    --threads 16 --lk-threads 14 --merge-tours true "$@" --json $OUT/raw/$tag.json --tour-out /tmp/$tag.tour > $OUT/raw/$tag.log 2>&1
  local v=$($F verify $file /tmp/$tag.tour | tail -n 1)
  python3 - $OUT/raw/$tag.json $tag $opt "$v" <<'PY'
import json, sys
path, tag, opt, v = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (5, 10, 20, 30, 60):
    r = [e["length"] for e in h if e["seconds"] <= b]
    if not r: at.append(f"{b}s -"); continue
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}%" if opt > 0 else f"{b}s {min(r)}")
best = d['best_length']
g = f" ({100*(best-opt)/opt:.4f}%)" if opt > 0 else ""
print(f"{tag:18s} {best}{g} | " + " ".join(at) + f" | {v}", flush=True)
PY
}
pair() {  # name file limit seed opt
  local name=$1 file=$2 lim=$3 seed=$4 opt=$5 a=$(( $4 % 2 )) b=$(( 1 - $4 % 2 ))
  one $a ${name}_d_s$seed $file $lim $seed $opt >> $OUT/default.txt &
  one $b ${name}_q_s$seed $file $lim $seed $opt --lk-lists quadrant >> $OUT/quadrant.txt &
  wait
}
T=$FORMICA_TSPLIB_DIR/tsp
for s in 1 2 3 4 5; do pair usa13509 $T/usa13509.tsp 10 $s 19982859; done
for s in 1 2 3; do pair d18512 $T/d18512.tsp 20 $s 645238; done
for s in 2 3; do pair pla33810 $T/pla33810.tsp 60 $s 66048945; done
for s in 1 2; do pair u200k /tmp/u200k.tsp 60 $s 0; done
cat $OUT/default.txt $OUT/quadrant.txt
grep -h "auto:" $OUT/raw/usa13509_q_s1.log $OUT/raw/u200k_q_s1.log | cut -c1-500
tar -C $OUT -czf $OUT/raw.tgz raw && rm -rf $OUT/raw
