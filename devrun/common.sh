# shared by the device scripts: unpack the binaries, name the host, and run() one solve.
set -u
# The tests look for their data beside the source tree they were built from (/work/main here).
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
mkdir -p build-dev && tar -C build-dev -xJf device-pack/bin.tar.xz
F=$PWD/build-dev/formica
D=$PWD/shared/tsplib_eax
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; } > $OUT/host.txt
mkdir -p $OUT/r
run() {  # tag instance optimum limit seed [args]
  local tag=$1 i=$2 opt=$3 lim=$4 s=$5; shift 5
  $F solve $D/tsp/$i.tsp --time-limit $lim --target $opt --seed $s "$@" \
    --json $OUT/r/${i}_${tag}_s$s.json --tour-out /tmp/t.tour > $OUT/r/${i}_${tag}_s$s.log 2>&1
  local v=$($F verify $D/tsp/$i.tsp /tmp/t.tour | tail -n 1)
  python3 - $OUT/r/${i}_${tag}_s$s.json $opt $s $tag "$v" <<'PY'
import json, sys
path, opt, seed, tag, v = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (1, 3, 10, 30, 60, 90, 120):
    r = [e["length"] for e in h if e["seconds"] <= b]
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}" if r else f"{b}s -")
hit = [e["seconds"] for e in h if e["length"] == opt]
print(f"{d['instance']:9s} {tag:6s} s{seed}: {d['best_length']} opt at {(f'{hit[0]:6.2f} s' if hit else ' never ')} | " + " ".join(at) + f" | {v}", flush=True)
PY
}
