# Scaling of the whole-tour threads against stretches on pla85900 from the colonies' start.
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
cd device-pack && tar -xJf bin.tar.xz && cd ..
B=$PWD/device-pack/large_tour_bench
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
C="--instance pla85900 --lists quadrant --lk-step 3opt --seconds 60 --every 5"
( taskset -c 0-15 $B $C --threads 14 --stretch 6135 > $OUT/lane0_t14.txt 2>&1 ) &
( taskset -c 16-31 $B $C --threads 1 --whole-only > $OUT/lane1_t1.txt 2>&1;
  taskset -c 16-31 $B $C --threads 4 --whole-only > $OUT/lane1_t4.txt 2>&1 ) &
wait
