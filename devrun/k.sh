# restart kicks experiment: eax_bench, CPU only, one thread per run
set -u
cmake -S . -B build-k -G Ninja -DCMAKE_BUILD_TYPE=Release -DFORMICA_CUDA=OFF -DFORMICA_BUILD_TESTS=OFF -DFORMICA_MPI=OFF -DFORMICA_PYTHON=OFF -DFORMICA_NCCL=OFF > $OUT/cfg.log 2>&1
time ninja -C build-k eax_bench > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
B=build-k/bench/eax_bench; [ -x $B ] || B=$(find build-k -name eax_bench -type f | head -1)
nproc; lscpu | grep "Model name"
S=${SECS:-240}
go() { $B --instance shared/tsplib/tsp/$1.tsp --optimum $2 --seconds $S --threads 1 --seed $4 --restart-kicks $3 > $OUT/$1_k$3_s$4.log 2>&1 & }
for s in 1 2; do for k in 0 10 50; do go pcb3038 137694 $k $s; go fnl4461 182566 $k $s; done; go pr2392 378032 0 $s; go pr2392 378032 10 $s; done
wait
for f in $OUT/*_k*_s*.log; do echo "$(basename $f): $(tail -n 1 $f)"; done
