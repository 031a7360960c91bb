# usa13509, formica solve --algorithm eax --backend cpu, 8 threads each, two runs at once: kicks 0 and 30
set -u
cmake -S . -B build-k -G Ninja -DCMAKE_BUILD_TYPE=Release -DFORMICA_CUDA=OFF -DFORMICA_BUILD_TESTS=OFF -DFORMICA_MPI=OFF -DFORMICA_PYTHON=OFF -DFORMICA_NCCL=OFF > /dev/null 2>&1
ninja -C build-k formica > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
F=$(find build-k -name formica -type f -perm -u+x | head -1)
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; } > $OUT/host.txt
opt=19982859; i=usa13509; mkdir -p /tmp/r
one() {  # kicks seed cpus
  taskset -c $3 $F solve shared/tsplib/tsp/$i.tsp --algorithm eax --backend cpu --threads 8 --eax-restart-kicks $1 --time-limit $LIM --target $opt --seed $2 --json /tmp/r/${i}_k$1_s$2.json --tour-out /tmp/r/${i}_k$1_s$2.tour > /tmp/r/${i}_k$1_s$2.log 2>&1
}
one 0 1 0-7 & one 30 1 8-15 & wait
for k in 0 30; do
  v=$($F verify shared/tsplib/tsp/$i.tsp /tmp/r/${i}_k${k}_s1.tour | tail -n 1)
  python3 - /tmp/r/${i}_k${k}_s1.json $opt $k "$v" <<'PY'
import json, sys
path, opt, k, v = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
d = json.load(open(path)); d.pop("tour", None); json.dump(d, open(path, "w"), indent=1)
h = d["history"]
at = []
for b in (10, 30, 60, 90, 120, 150, 180, 210, 240):
    r = [e["length"] for e in h if e["seconds"] <= b]
    at.append(f"{b}s {100*(min(r)-opt)/opt:.4f}%" if r else f"{b}s -")
print(f"usa13509 kicks {k} seed 1: {d['best_length']}; " + "  ".join(at) + f" | {v}", flush=True)
PY
done | tee $OUT/usa13509.txt
rm -f /tmp/r/*.tour; tar -C /tmp -czf $OUT/r.tgz r
