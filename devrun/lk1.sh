# pla85900: single-thread iterated LK variants from two 60-s solver tours (2 x H200 host, 32 cores).
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
cd device-pack && tar -xJf bin.tar.xz && cd ..
F=$PWD/device-pack/formica; B=$PWD/device-pack/large_tour_bench
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
mkdir -p $OUT/raw
P=$FORMICA_TSPLIB_DIR/tsp/pla85900.tsp
for lane in 0 1; do
  CUDA_VISIBLE_DEVICES=$lane taskset -c $((16*lane))-$((16*lane+15)) $F solve $P --time-limit 60 --seed $((lane+1)) \
    --threads 16 --lk-threads 14 --merge-tours true --tour-out $OUT/raw/start$lane.tour > $OUT/raw/start$lane.log 2>&1 &
done
wait
tail -n 3 $OUT/raw/start*.log
CONFIGS=(
 "A531d50|--lk-breadth 5 3 1 --lk-depth 50"
 "B321d50|--lk-breadth 3 2 1 --lk-depth 50"
 "C311d50|--lk-breadth 3 1 1 --lk-depth 50"
 "D211d50|--lk-breadth 2 1 1 --lk-depth 50"
 "E111d50|--lk-breadth 1 1 1 --lk-depth 50"
 "F531d25|--lk-breadth 5 3 1 --lk-depth 25"
 "G531d12|--lk-breadth 5 3 1 --lk-depth 12"
 "H553d50|--lk-breadth 5 5 3 --lk-depth 50"
 "I311d20|--lk-breadth 3 1 1 --lk-depth 20"
 "Jq531d50|--lists quadrant --lk-breadth 5 3 1 --lk-depth 50"
 "Kq311d50|--lists quadrant --lk-breadth 3 1 1 --lk-depth 50"
 "Ln8|--neighbours 8 --lk-breadth 5 3 1 --lk-depth 50"
 "Mn12|--neighbours 12 --lk-breadth 5 3 1 --lk-depth 50"
 "Nq8|--lists quadrant --neighbours 8 --lk-breadth 5 3 1 --lk-depth 50"
 "O2opt|--lk-step 2opt --lk-breadth 5 3 1 --lk-depth 50"
 "Pn6|--neighbours 6 --lk-breadth 5 3 1 --lk-depth 50"
)
core=0
for start in 0 1; do
  for c in "${CONFIGS[@]}"; do
    tag=${c%%|*}; args=${c#*|}
    [[ $args == *--lk-step* ]] || args="--lk-step 3opt $args"
    taskset -c $core $B --instance pla85900 --start $OUT/raw/start$start.tour --whole-only --threads 1 --seed $((start+1)) \
      --seconds 150 --every 30 $args > $OUT/raw/${tag}_s$start.log 2>&1 &
    core=$((core+1))
  done
done
wait
for f in $OUT/raw/*_s*.log; do echo "$(basename $f .log) $(tail -n 1 $f)"; done | sort > $OUT/summary.txt
cat $OUT/summary.txt
tar -C $OUT -czf $OUT/raw.tgz raw && rm -rf $OUT/raw
