# fnl4461 and pcb3038, formica solve --algorithm eax, 16 threads, stop at the optimum; kicks $KICKS
set -u
cmake -S . -B build-k -G Ninja -DCMAKE_BUILD_TYPE=Release -DFORMICA_CUDA=OFF -DFORMICA_BUILD_TESTS=OFF -DFORMICA_MPI=OFF -DFORMICA_PYTHON=OFF -DFORMICA_NCCL=OFF > /dev/null 2>&1
ninja -C build-k formica > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
F=$(find build-k -name formica -type f -perm -u+x | head -1)
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; } > $OUT/host.txt
mkdir -p /tmp/r
for i in $INST; do case $i in pcb3038) opt=137694;; fnl4461) opt=182566;; esac
for s in $SEEDS; do
  $F solve shared/tsplib/tsp/$i.tsp --algorithm eax --backend cpu --threads 16 --eax-restart-kicks $KICKS --time-limit ${LIM:-60} --target $opt --seed $s --json /tmp/r/${i}_k${KICKS}_s$s.json --tour-out /tmp/t.tour > /tmp/r/${i}_k${KICKS}_s$s.log 2>&1
  v=$($F verify shared/tsplib/tsp/$i.tsp /tmp/t.tour | tail -n 1)
  python3 - /tmp/r/${i}_k${KICKS}_s$s.json $opt $s "$v" <<'PY'
import json, sys
path, opt, seed, v = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (1, 3, 10, 30, 60):
    r = [e["length"] for e in h if e["seconds"] <= b]
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}%" if r else f"{b}s -")
hit = [e["seconds"] for e in h if e["length"] == opt]
print(f"{d['instance']} seed {seed}: {d['best_length']} optimum at {(f'{hit[0]:.2f} s' if hit else 'never')}; " + "  ".join(at) + f" | {v}", flush=True)
PY
done; done | tee $OUT/eax_k${KICKS}.txt
tar -C /tmp -czf $OUT/r_k${KICKS}.tgz r
