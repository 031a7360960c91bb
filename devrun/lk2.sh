# Single-thread iterated LK, nearest against quadrant lists, on four more instances (2 x H200 host, 32 cores).
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
cd device-pack && tar -xJf bin.tar.xz && cd ..
F=$PWD/device-pack/formica; B=$PWD/device-pack/large_tour_bench
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
mkdir -p $OUT/raw
T=$FORMICA_TSPLIB_DIR/tsp
$F generate --cities 200000 --seed 1 --output /tmp/u200k.tsp > /dev/null
s() { # lane file limit tag
  CUDA_VISIBLE_DEVICES=$1 taskset -c $((16*$1))-$((16*$1+15)) $F solve $2 --time-limit $3 --seed 1 \
    --threads 16 --lk-threads 14 --merge-tours true --tour-out $OUT/raw/start_$4.tour > $OUT/raw/start_$4.log 2>&1
}
( s 0 /tmp/u200k.tsp 60 u200k ) &
( s 1 $T/usa13509.tsp 10 usa13509; s 1 $T/d18512.tsp 20 d18512; s 1 $T/pla33810.tsp 20 pla33810 ) &
wait
for f in $OUT/raw/start_*.log; do tail -n 1 $f; done
CONFIGS=(
 "n531|--lk-breadth 5 3 1"
 "q531|--lists quadrant --lk-breadth 5 3 1"
 "q311|--lists quadrant --lk-breadth 3 1 1"
 "n311|--lk-breadth 3 1 1"
)
core=0
for inst in u200k usa13509 d18512 pla33810; do
  spec=$inst; [ $inst = u200k ] && spec=/tmp/u200k.tsp
  for seed in 1 2; do
    for c in "${CONFIGS[@]}"; do
      tag=${c%%|*}; args=${c#*|}
      taskset -c $core $B --instance $spec --start $OUT/raw/start_$inst.tour --whole-only --threads 1 --seed $seed \
        --seconds 120 --every 30 --lk-step 3opt $args > $OUT/raw/${inst}_${tag}_s$seed.log 2>&1 &
      core=$((core+1))
    done
  done
done
wait
for f in $OUT/raw/*_s?.log; do echo "$(basename $f .log) $(tail -n 1 $f)"; done | sort > $OUT/summary.txt
cat $OUT/summary.txt
tar -C $OUT -czf $OUT/raw.tgz raw && rm -rf $OUT/raw
