# Solver runs on two lanes at once: run.sh "<lane 0 jobs>" "<lane 1 jobs>", a job inst:time:seed:tag[:arg,arg...]
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
mkdir -p build-dev && tar -C build-dev -xJf device-pack/bin.tar.xz
F=$PWD/build-dev/formica
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
mkdir -p $OUT/r
declare -A OPT=([pcb3038]=137694 [fnl4461]=182566 [usa13509]=19982859 [d18512]=645238 [pla33810]=66048945 [pla85900]=142382641)
one() {  # lane job
  local lane=$1 inst time seed tag extra
  IFS=: read -r inst time seed tag extra <<< "$2"
  local name=${inst}_${time}s_s${seed}_${tag}
  CUDA_VISIBLE_DEVICES=$lane taskset -c $((16*lane))-$((16*lane+15)) $F solve $FORMICA_TSPLIB_DIR/tsp/$inst.tsp --time-limit $time --seed $seed \
    --threads 16 --lk-threads 14 --merge-tours true ${extra//,/ } --json $OUT/r/$name.json --tour-out /tmp/$name.tour > $OUT/r/$name.log 2>&1
  local v=$($F verify $FORMICA_TSPLIB_DIR/tsp/$inst.tsp /tmp/$name.tour | tail -n 1)
  python3 - $OUT/r/$name.json $name ${OPT[$inst]} "$v" <<'PY'
import json, sys
path, tag, opt, v = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (1, 3, 10, 30, 60, 100, 120, 200, 300, 400, 500):
    if b > d["seconds"] + 1: break
    r = [e["length"] for e in h if e["seconds"] <= b]
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}" if r else f"{b}s -")
best = d['best_length']
hit = [e["seconds"] for e in h if e["length"] <= opt]
at.append(f"opt@{min(hit):.2f}s" if hit else "opt@never")
print(f"{tag:28s} {best} ({100*(best-opt)/opt:.4f}%) | " + " ".join(at) + f" | {v}", flush=True)
PY
}
lane() { local l=$1; shift; for j in $1; do one $l $j; done > $OUT/lane$l.txt 2>&1; }
lane 0 "$1" &
lane 1 "$2" &
wait
cat $OUT/lane0.txt $OUT/lane1.txt
grep -h "auto:" $OUT/r/*.log | cut -c1-400 | sort | uniq | head -20
