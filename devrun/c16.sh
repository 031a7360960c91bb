# CPU backend on the 16-core host: the auto default of before (16 ant threads: --lk-threads 0) against
# the new one (8 ant threads + 8 Lin-Kernighan threads), seed 1, 30 s
set -u
export FORMICA_TSPLIB_DIR=$PWD/shared/tsplib
F=$PWD/device-pack/formica; chmod +x $F
{ nproc; lscpu | grep "Model name"; date -u; } > $OUT/host.txt; cat $OUT/host.txt
$F generate --cities 200000 --kind uniform --seed 1 --output /tmp/u200k.tsp > /dev/null
for inst in $FORMICA_TSPLIB_DIR/tsp/usa13509.tsp /tmp/u200k.tsp; do
  for v in "before --lk-threads 0" "new"; do
    set -- $v; tag=$1; shift
    $F solve $inst --backend cpu --time-limit 30 --seed 1 "$@" --tour-out /tmp/t.tour > $OUT/$(basename $inst .tsp)_$tag.log 2>&1
    echo "$tag $(grep -o "auto: n = [0-9]* on the CPU: mmas with [0-9]* ants[^,]*\|with [0-9]* iterated Lin-Kernighan host threads" $OUT/$(basename $inst .tsp)_$tag.log | tr '\n' ' ')"
    echo "   $(tail -1 $OUT/$(basename $inst .tsp)_$tag.log) | $($F verify $inst /tmp/t.tour | tail -1)"
  done
done
