# pla85900: seed 5 of the solver with --lk-lists alpha; then the LK threads alone (14) from the solver's 30-s tour, 60 s, quadrant vs alpha 5, threads' seeds 2 and 3
set -u
bash devrun/one.sh "pla85900:120:5:alpha:--lk-lists,alpha"
B=$PWD/build-dev/large_tour_bench; F=$PWD/build-dev/formica
P=$PWD/shared/tsplib/tsp/pla85900.tsp
$F solve $P --time-limit 30 --seed 1 --tour-out $OUT/r/start30.tour > $OUT/r/solve30.log 2>&1
tail -n 1 $OUT/r/solve30.log
for s in 2 3; do
for v in "q:--lists quadrant --lk-step 3opt" "a5:--alpha 5 --lk-step 3opt"; do
  tag=${v%%:*}; args=${v#*:}
  $B --instance $P --seed $s --start $OUT/r/start30.tour --whole-only --threads 14 --seconds 60 --every 15 $args > $OUT/r/lk_${tag}_s$s.txt 2>&1
  echo "== $tag seed $s"; cat $OUT/r/lk_${tag}_s$s.txt
done; done
tar -czf $OUT/r.tgz -C $OUT r
