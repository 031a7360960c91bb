# restart kicks experiment 2: time to the optimum, k0 vs k30, more seeds
set -u
cmake -S . -B build-k -G Ninja -DCMAKE_BUILD_TYPE=Release -DFORMICA_CUDA=OFF -DFORMICA_BUILD_TESTS=OFF -DFORMICA_MPI=OFF -DFORMICA_PYTHON=OFF -DFORMICA_NCCL=OFF > /dev/null 2>&1
ninja -C build-k eax_bench > /dev/null 2>&1 || exit 1
B=$(find build-k -name eax_bench -type f | head -1)
S=${SECS:-180}
mkdir -p /tmp/l
go() { $B --instance shared/tsplib/tsp/$1.tsp --optimum $2 --seconds $S --threads 1 --seed $4 --restart-kicks $3 > /tmp/l/$1_k$3_s$4.log 2>&1 & }
for s in $SEEDS; do for k in $KICKS; do go pcb3038 137694 $k $s; go fnl4461 182566 $k $s; done; done
wait
for f in /tmp/l/*.log; do t=$(grep -m1 " 0.0000 %" $f | awk '{print $1}'); echo "$(basename $f .log) opt_at=${t:-never} $(tail -n 1 $f | cut -c1-40)"; done | tee $OUT/summary.txt
tar -C /tmp -czf $OUT/logs.tgz l
