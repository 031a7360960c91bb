# Merging walks: large_tour_bench 14 threads from solver tours (pla85900, 200k), adopt vs merge; then
# the solver on pla85900 120 s with --lk-merge-walks true, seeds 1-4.
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
cd device-pack && tar -xJf bin.tar.xz && cd ..
F=$PWD/device-pack/formica; B=$PWD/device-pack/large_tour_bench
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
mkdir -p $OUT/raw
P=$FORMICA_TSPLIB_DIR/tsp/pla85900.tsp
bench() {  # lane tag instance start [args]
  local lane=$1 tag=$2 inst=$3 start=$4; shift 4
  taskset -c $((16*lane))-$((16*lane+13)) $B --instance $inst --start $start --whole-only --threads 14 \
    --lk-step 3opt --seconds 60 --every 10 "$@" > $OUT/raw/b_$tag.log 2>&1
}
bench 0 pla_adopt $P device-pack/start_pla.tour &
bench 1 pla_merge $P device-pack/start_pla.tour --merge-walks &
wait
bench 0 u200k_adopt uniform:200000:1 device-pack/start_u200k.tour &
bench 1 u200k_merge uniform:200000:1 device-pack/start_u200k.tour --merge-walks &
wait
tail -n 4 $OUT/raw/b_*.log
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
( one 0 pla_m_s1 $P 120 1 --lk-merge-walks true; one 0 pla_m_s2 $P 120 2 --lk-merge-walks true ) > $OUT/lane0.txt &
( one 1 pla_mq_s1 $P 120 1 --lk-merge-walks true --lk-lists quadrant; one 1 pla_mq_s2 $P 120 2 --lk-merge-walks true --lk-lists quadrant ) > $OUT/lane1.txt &
wait
cat $OUT/lane0.txt $OUT/lane1.txt
grep -h "auto:" $OUT/raw/pla_m_s1.log | cut -c1-500
tar -C $OUT -czf $OUT/raw.tgz raw && rm -rf $OUT/raw
