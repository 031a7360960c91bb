# pla85900, 125 s, seed 1: GA-EAX host threads beside the colonies with a kicked first population
set -u
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
F=$PWD/device-pack/formica; chmod +x $F
I=$FORMICA_TSPLIB_DIR/tsp/pla85900.tsp; OPT=142382641
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
cat $OUT/host.txt
run() {  # tag seed limit [args]
  local tag=$1 s=$2 lim=$3; shift 3
  $F solve $I --time-limit $lim --seed $s "$@" --json $OUT/${tag}_s$s.json --tour-out /tmp/t.tour > $OUT/${tag}_s$s.log 2>&1
  local v=$($F verify $I /tmp/t.tour | tail -n 1)
  python3 - $OUT/${tag}_s$s.json $OPT $s $tag "$v" <<'PY'
import json, sys
path, opt, seed, tag, v = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (1, 3, 10, 30, 60, 100, 120):
    r = [e["length"] for e in h if e["seconds"] <= b]
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}" if r else f"{b}s -")
print(f"{tag:14s} s{seed}: {d['best_length']} | " + " ".join(at) + f" | {v}", flush=True)
PY
}
