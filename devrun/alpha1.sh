# pla85900: the LK threads alone (14) from the solver's 30-s tour, 90 s, quadrant vs alpha lists
set -u
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
mkdir -p build-dev && tar -C build-dev -xJf device-pack/bin.tar.xz
F=$PWD/build-dev/formica; B=$PWD/build-dev/large_tour_bench
P=$PWD/shared/tsplib/tsp/pla85900.tsp
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt
mkdir -p $OUT/r
$F solve $P --time-limit 30 --seed 1 --tour-out $OUT/r/start30.tour > $OUT/r/solve30.log 2>&1
tail -n 3 $OUT/r/solve30.log
for v in "q:--lists quadrant --lk-step 3opt" "a5:--alpha 5 --lk-step 3opt" "a8:--alpha 8 --lk-step 3opt" "a5x5:--alpha 5 --lk-step 5opt"; do
  tag=${v%%:*}; args=${v#*:}
  $B --instance $P --start $OUT/r/start30.tour --whole-only --threads 14 --seconds 90 --every 15 $args > $OUT/r/lk_$tag.txt 2>&1
  echo "== $tag"; cat $OUT/r/lk_$tag.txt
done
tar -czf $OUT/r.tgz -C $OUT r
